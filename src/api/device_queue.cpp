#include "api/device_queue.hpp"

#include <cstdlib>

#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {
bool launch_blocking() {
  const auto value = env_string("CUDA_LAUNCH_BLOCKING");
  return value && *value == "1";
}
}  // namespace

device_queue::device_queue() : blocking_(launch_blocking()), thread_([this] { main_loop(); }) {}

device_queue::~device_queue() { shut_down(); }

void device_queue::shut_down() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  work_ready_.notify_all();
  if (thread_.joinable()) thread_.join();
}

device_queue::ticket device_queue::submit(std::function<void()> work) {
  ticket t = 0;
  {
    std::unique_lock lock(mutex_);
    if (stopping_) {
      // After exit began: run it here, in order after everything before it.
      lock.unlock();
      wait_all();
      work();
      lock.lock();
      t = submitted_.load(std::memory_order_relaxed) + 1;
      submitted_.store(t, std::memory_order_release);
      completed_.store(t, std::memory_order_release);
      return t;
    }
    queue_.push_back(std::move(work));
    t = submitted_.load(std::memory_order_relaxed) + 1;
    submitted_.store(t, std::memory_order_release);
  }
  work_ready_.notify_one();
  if (blocking_ && !on_device_thread()) wait(t);
  return t;
}

void device_queue::wait(ticket t) {
  if (finished(t)) return;
  std::unique_lock lock(mutex_);
  work_done_.wait(lock, [&] { return finished(t); });
}

void device_queue::wait_all() { wait(last_submitted()); }

void device_queue::main_loop() {
  for (;;) {
    std::function<void()> work;
    {
      std::unique_lock lock(mutex_);
      // At exit, what is queued still runs: a program that ends without
      // synchronising still gets its kernels' output and effects.
      work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    work();
    {
      std::lock_guard lock(mutex_);
      completed_.fetch_add(1, std::memory_order_acq_rel);
    }
    work_done_.notify_all();
  }
}

device_queue& the_device() {
  static device_queue& device = [] () -> device_queue& {
    auto* made = new device_queue;
    std::atexit([] { the_device().shut_down(); });
    return *made;
  }();
  return device;
}

bool may_wait_for_device(const char* api) {
  if (!the_device().on_device_thread()) return true;
  report("{} was called from a host function that runs in a stream (cudaLaunchHostFunc, cudaStreamAddCallback): "
         "such functions must not make CUDA calls; waiting for the device there waits for itself. It returns "
         "cudaErrorNotPermitted.",
         api);
  return false;
}

}  // namespace cusim::detail
