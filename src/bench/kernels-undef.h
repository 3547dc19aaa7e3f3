/* Ends one ISA's instantiation of kernels-simd.h in kernels.c, so the next can define its own. */
#undef VT
#undef W
#undef ATTR
#undef FN
#undef LOAD
#undef STORE
#undef NTSTORE
#undef SET1
#undef ADD
#undef MUL
#undef FMA
#undef HSUM
