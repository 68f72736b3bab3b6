#include <amp.h>
using namespace concurrency;
template <int T, class V> void f(V &v) { auto t = v.extent.tile<T>(); auto r = v.reinterpret_as<int>(); }
void main()
{
  if (x) return;
  parallel_for_each(e, [=](index<1> i) restrict(amp) { if (i[0]) return; });
  auto g = [&]() mutable { return; };
  { return ; }
}
