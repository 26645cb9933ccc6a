namespace n { __shared__ int counter; }
namespace m { namespace q { __shared__ float x[3]; } }
struct S { __shared__ int member; };
void k() {}
__shared__ int global_one;
