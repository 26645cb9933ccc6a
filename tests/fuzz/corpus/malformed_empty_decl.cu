__shared__;
__shared__ ;
__constant__ = 1;