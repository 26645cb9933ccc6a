// A fixture for the layer check: a public header must not include the runtime's sources.
#pragma once
#include "sched/worker.hpp"
