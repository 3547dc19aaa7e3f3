/* archscope-marker.h: mark regions of a program for `archscope stat --regions` (and phases and
 * stack --regions). Include it and put ARCHSCOPE_REGION_BEGIN("name") / ARCHSCOPE_REGION_END("name")
 * around the code to measure, in every thread that runs it; nothing to link. Run under archscope,
 * its marker library (preloaded) counts each region per thread: calls, time and the thread's
 * counters. Run alone, the macros do nothing (the functions are weak references, NULL unless the
 * library is loaded). Regions nest (each accounts its own interval) but a region cannot be started
 * again while it runs. LIKWID's likwid-marker.h works under archscope unchanged as well. */
#ifndef ARCHSCOPE_MARKER_H
#define ARCHSCOPE_MARKER_H

#ifdef __cplusplus
extern "C" {
#endif

/* 0 when counted; a negative errno when the name is empty or too long (127 bytes at most), the
 * region is already running (begin) or not running (end). */
extern int archscope_region_begin(const char *name) __attribute__((weak));
extern int archscope_region_end(const char *name) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#define ARCHSCOPE_REGION_BEGIN(name) (archscope_region_begin ? archscope_region_begin(name) : 0)
#define ARCHSCOPE_REGION_END(name) (archscope_region_end ? archscope_region_end(name) : 0)

#endif
