// The one header every generated translation unit includes.
#pragma once

#include "native_attention.h"
#include "native_conv.h"
#include "native_gemm.h"
#include "native_pool.h"
#include "native_rows.h"
#include "native_runtime.h"
#include "native_squeeze_excitation.h"
