// The emulated device's work queue. What CUDA runs asynchronously to the
// host (kernel launches, async copies and sets, event records, host
// functions) is queued here and run by one device thread, in submission
// order, while the host thread goes on. Calls that CUDA makes synchronous
// (cudaMemcpy, cudaDeviceSynchronize, cudaStreamSynchronize, ...) wait for
// the work they depend on.
//
// One queue in submission order keeps every order CUDA promises: a stream's
// own order, the legacy default stream's synchronisation with blocking
// streams, and every event a stream waits for (recorded before the wait was
// submitted). Work of different streams never overlaps here, which CUDA
// allows but does not require.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace cusim::detail {

class device_queue {
 public:
  using ticket = std::uint64_t;  // 0: nothing

  device_queue();
  ~device_queue();  // see the_device(): never called for the process's device
  // Runs what is queued, then stops the device thread; later work runs on
  // the submitting thread. Called at exit.
  void shut_down();
  device_queue(const device_queue&) = delete;
  device_queue& operator=(const device_queue&) = delete;

  // Queues `work`; returns its ticket. With CUDA_LAUNCH_BLOCKING=1 it has
  // also run when this returns, as CUDA's launches then are.
  ticket submit(std::function<void()> work);
  // Waits until the work of ticket `t`, and all before it, has run.
  void wait(ticket t);
  // Waits until everything submitted so far has run.
  void wait_all();
  bool finished(ticket t) const { return t <= completed_.load(std::memory_order_acquire); }
  ticket last_submitted() const { return submitted_.load(std::memory_order_acquire); }
  // True on the device thread (a host function queued with cudaLaunchHostFunc
  // runs there, and must not wait for the device).
  bool on_device_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

 private:
  void main_loop();

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::deque<std::function<void()>> queue_;
  std::atomic<ticket> submitted_{0};
  std::atomic<ticket> completed_{0};
  bool stopping_ = false;
  bool blocking_;  // CUDA_LAUNCH_BLOCKING
  std::thread thread_;
};

// The device of this process, made at first use. It is never destroyed: at
// exit (std::atexit, registered when it is made, so before the destructors
// of the static objects made before it) it runs the work still queued, so a
// program that ends without synchronising still gets its kernels' effects
// and output. The runtime's own objects that work touches are never
// destroyed either, whatever their order of construction.
device_queue& the_device();

// For host calls that wait for the device: false (after a report) when
// called from a host function running on the device thread, where waiting
// would wait for itself; CUDA forbids CUDA calls there.
bool may_wait_for_device(const char* api);

}  // namespace cusim::detail
