// CUDA splits cooperative groups over several headers; cusim keeps them in one.
#pragma once
#include "../cooperative_groups.h"
