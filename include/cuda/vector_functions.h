// Declares the make_<vector type> functions (make_float4, make_int2, ...),
// as NVIDIA's header of the same name does; vector_types.h defines them.
#pragma once
#ifndef __VECTOR_FUNCTIONS_H__
#define __VECTOR_FUNCTIONS_H__
#endif
#include "vector_types.h"
