/* xoshiro256** with splitmix64 seeding (public-domain algorithms by Blackman and Vigna). */
#include "common/rng.h"

#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void rng_init(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;
	r->seed = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t rng_seed_from_time(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
	return splitmix64(&x) & 0xffffffffull; /* short enough to retype */
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t rng_below(struct rng *r, uint64_t bound)
{
	uint64_t threshold = -bound % bound;
	for (;;) {
		uint64_t x = rng_next(r);
		if (x >= threshold)
			return x % bound;
	}
}

void rng_shuffle(struct rng *r, size_t *v, size_t n)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)rng_below(r, i);
		size_t t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}
