// The library's interface: host functions that launch its kernels.
#pragma once
void scale_on_device(float* device_data, int n, float factor);
