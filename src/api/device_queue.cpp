#include "api/device_queue.hpp"

#include <chrono>
#include <cstdlib>

#include <cusim/profile.hpp>
#include <cusim/runtime.hpp>

#include "sched/race_check.hpp"
#include "support/diagnostics.hpp"
#include "support/env.hpp"

namespace cusim::detail {

namespace {
bool launch_blocking_requested() {
  const auto value = env_string("CUDA_LAUNCH_BLOCKING");
  return value && *value == "1";
}

thread_local bool is_device_thread = false;

// How long a waiting thread polls before it sleeps: about twice what waking
// a sleeping thread costs on the virtual machines cusim is measured on.
constexpr auto poll_before_sleeping = std::chrono::microseconds(50);

// Polls `done` for poll_before_sleeping; true as soon as it holds. Each
// look yields the core, since the thread being waited for may be queued on
// this very core (a spin on `pause` is no better on a virtual CPU: the
// hypervisor takes the core away from a guest that pauses in a loop).
template <typename Done>
bool poll_briefly(Done done) {
  const auto until = std::chrono::steady_clock::now() + poll_before_sleeping;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return done();
    std::this_thread::yield();
  }
  return true;
}
}  // namespace

device_queue::device_queue() : blocking_(launch_blocking_requested()) {}

device_queue::~device_queue() { shut_down(); }

bool device_queue::on_device_thread() { return is_device_thread; }

void device_queue::shut_down() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  work_ready_.notify_all();
  // A device thread may start another while the queue drains: join until none is left.
  for (std::size_t i = 0;; ++i) {
    std::thread thread;
    {
      std::lock_guard lock(mutex_);
      if (i >= threads_.size()) break;
      thread = std::move(threads_[i]);
    }
    thread.join();
  }
}

device_queue::ticket device_queue::submit(std::function<void()> work, const std::vector<ticket>& after, int device) {
  std::unique_lock lock(mutex_);
  if (stopping_) {
    // After exit began: run it here, after everything before it.
    lock.unlock();
    wait_all();
    const int caller_device = current_device();
    set_current_device(device);
    work();
    set_current_device(caller_device);
    lock.lock();
    const ticket t = submitted_.load(std::memory_order_relaxed) + 1;
    submitted_.store(t, std::memory_order_release);
    if (unfinished_.empty()) all_finished_up_to_.store(t, std::memory_order_release);
    return t;
  }
  const ticket t = submitted_.load(std::memory_order_relaxed) + 1;
  pending_work& item = unfinished_[t];
  item.work = std::move(work);
  item.device = device;
  for (ticket predecessor : after) {
    auto it = unfinished_.find(predecessor);
    if (it == unfinished_.end() || predecessor == t) continue;  // run already
    it->second.followers.push_back(t);
    ++item.waiting_for;
  }
  submitted_.store(t, std::memory_order_release);
  if (item.waiting_for == 0) {
    ready_.insert(t);
    publish_ready_count();
    start_device_thread_if_needed(0);
  }
  lock.unlock();
  work_ready_.notify_all();
  return t;
}

void device_queue::start_device_thread_if_needed(unsigned int about_to_look) {
  const std::size_t limit = one_worker_requested() ? 1 : max_device_threads;
  if (ready_.size() <= idle_threads_ + about_to_look || threads_.size() >= limit) return;
  threads_.emplace_back([this] { device_thread_main(); });
}

bool device_queue::finished(ticket t) const {
  // Race checking: the work that ran happens before what its waiter does
  // next (TSan sees the mutex, not this class's atomics).
  if (t <= all_finished_up_to_.load(std::memory_order_acquire)) {
    race::acquire(this);
    return true;
  }
  std::lock_guard lock(mutex_);
  return unfinished_.find(t) == unfinished_.end();
}

bool device_queue::finished_soon(ticket last) {
  if (!poll_briefly([&] { return last <= all_finished_up_to_.load(std::memory_order_acquire); })) return false;
  race::acquire(this);  // as finished() does
  return true;
}

void device_queue::wait(ticket t) {
  if (finished(t)) return;  // (race checking: acquired there)
  if (finished_soon(t)) return;
  std::unique_lock lock(mutex_);
  work_done_.wait(lock, [&] { return unfinished_.find(t) == unfinished_.end(); });
}

void device_queue::wait_all() {
  const ticket last = last_submitted();
  if (finished_soon(last)) return;
  std::unique_lock lock(mutex_);
  work_done_.wait(lock, [&] { return last <= all_finished_up_to_.load(std::memory_order_acquire); });
}

void device_queue::wait_all_of(int device) {
  const ticket last = last_submitted();
  const auto done = [&] {
    if (last <= all_finished_up_to_.load(std::memory_order_acquire)) return true;
    for (auto it = unfinished_.begin(); it != unfinished_.end() && it->first <= last; ++it) {
      if (it->second.device == device) return false;
    }
    return true;
  };
  if (finished_soon(last)) return;
  std::unique_lock lock(mutex_);
  work_done_.wait(lock, done);
}

void device_queue::complete(ticket t) {
  auto it = unfinished_.find(t);
  for (ticket follower : it->second.followers) {
    if (--unfinished_.at(follower).waiting_for == 0) ready_.insert(follower);
  }
  publish_ready_count();
  unfinished_.erase(it);
  all_finished_up_to_.store(unfinished_.empty() ? submitted_.load(std::memory_order_relaxed)
                                                : unfinished_.begin()->first - 1,
                            std::memory_order_release);
}

void device_queue::device_thread_main() {
  is_device_thread = true;
  std::unique_lock lock(mutex_);
  for (;;) {
    // At exit, what is queued still runs: a program that ends without
    // synchronising still gets its kernels' output and effects.
    ++idle_threads_;
    if (ready_.empty() && !stopping_) {
      lock.unlock();
      poll_briefly([&] { return ready_count_.load(std::memory_order_acquire) != 0; });
      lock.lock();
    }
    work_ready_.wait(lock, [&] { return !ready_.empty() || (stopping_ && unfinished_.empty()); });
    --idle_threads_;
    if (ready_.empty()) return;
    const ticket t = *ready_.begin();
    ready_.erase(ready_.begin());
    publish_ready_count();
    pending_work& item = unfinished_.at(t);
    std::function<void()> work = std::move(item.work);
    set_current_device(item.device);
    lock.unlock();
    work();
    work = nullptr;  // what it holds goes before its completion shows
    race::release(this);
    lock.lock();
    complete(t);
    start_device_thread_if_needed(1);  // this thread takes one of the ready
    // Notified without the mutex, so that a woken waiter does not go
    // straight back to sleep on it.
    lock.unlock();
    work_done_.notify_all();
    work_ready_.notify_all();
    lock.lock();
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
  if (!device_queue::on_device_thread()) return true;
  report("{} was called from a host function that runs in a stream (cudaLaunchHostFunc, cudaStreamAddCallback): "
         "such functions must not make CUDA calls; waiting for the device there may wait for itself. It returns "
         "cudaErrorNotPermitted.",
         api);
  return false;
}

}  // namespace cusim::detail
