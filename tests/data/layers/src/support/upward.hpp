// A fixture for the layer check (cmake/CheckLayers.cmake): support/ is the
// lowest layer, and this include points up to api/.
#pragma once
#include "api/entry.hpp"
