#pragma once
const int bins = 16;
void histogram_on_device(const unsigned char* device_values, int n, unsigned int* device_bins);
