// A fixture for the layer check: api/ may include support/.
#pragma once
#include "support/upward.hpp"
