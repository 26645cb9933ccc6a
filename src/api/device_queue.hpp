// The emulated device's work queue. What CUDA runs asynchronously to the
// host (kernel launches, async copies and sets, event records, host
// functions) is queued here and run by device threads while the host thread
// goes on. Calls that CUDA makes synchronous (cudaMemcpy,
// cudaDeviceSynchronize, cudaStreamSynchronize, ...) wait for the work they
// depend on.
//
// Each piece of work names the work it must follow (streams.cpp works out
// which: its stream's last work, the legacy default stream's barrier, the
// record of an event it waits for). Work whose predecessors have all run is
// ready, and ready work runs oldest first on the first idle device thread;
// when none is idle another starts (up to max_device_threads), so the
// kernels, copies and host functions of independent streams overlap as on a
// GPU: a kernel that waits for another stream's kernel sees it run. With one
// worker requested (cusim::one_worker_requested) one device thread runs all,
// oldest ready first: with one host thread submitting, the order is then the
// same in every run.
//
// Waking a sleeping OS thread costs tens of microseconds on a virtual CPU,
// and a launch followed by a synchronize would pay it twice (the device
// thread woken for the launch, the host for the completion): both sides
// poll for a short while before they sleep, as CUDA's own default
// (cudaDeviceScheduleAuto) spins before it blocks.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace cusim::detail {

class device_queue {
 public:
  using ticket = std::uint64_t;  // 0: nothing
  // How much work may run at once. An H100 runs up to 128 kernels at once;
  // each device thread here brings a pool of CUSIM_WORKERS workers.
  static constexpr unsigned int max_device_threads = 16;

  device_queue();
  ~device_queue();  // see the_device(): never called for the process's device
  // Runs what is queued, then stops the device threads; later work runs on
  // the submitting thread. Called at exit.
  void shut_down();
  device_queue(const device_queue&) = delete;
  device_queue& operator=(const device_queue&) = delete;

  // Queues `work` to run after every ticket in `after` has, with `device`
  // current (cusim/profile.hpp); returns its ticket.
  ticket submit(std::function<void()> work, const std::vector<ticket>& after, int device);
  // Waits until the work of ticket `t` (and so everything it follows) has run.
  void wait(ticket t);
  // Waits until everything submitted so far has run.
  void wait_all();
  // Waits until everything submitted so far for `device` has run.
  void wait_all_of(int device);
  bool finished(ticket t) const;
  ticket last_submitted() const { return submitted_.load(std::memory_order_acquire); }
  // True on a device thread (a host function queued with cudaLaunchHostFunc
  // runs there, and must not wait for the device).
  static bool on_device_thread();
  // CUDA_LAUNCH_BLOCKING=1: every launch and copy is waited for, as CUDA's then are.
  bool launch_blocking() const { return blocking_; }

 private:
  struct pending_work {
    std::function<void()> work;
    unsigned int waiting_for = 0;   // predecessors not yet run
    std::vector<ticket> followers;  // work waiting for this
    int device = 0;
  };
  void device_thread_main();
  // Polls briefly (poll_briefly) for every ticket up to `last` to have run.
  bool finished_soon(ticket last);
  void complete(ticket t);  // with mutex_ held
  // With mutex_ held: starts a device thread when more work is ready than
  // idle threads (and `about_to_look` busy ones about to look) can take.
  void start_device_thread_if_needed(unsigned int about_to_look);
  // With mutex_ held: ready_ changed.
  void publish_ready_count() { ready_count_.store(ready_.size(), std::memory_order_release); }

  mutable std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  std::map<ticket, pending_work> unfinished_;  // submitted, not yet run
  std::set<ticket> ready_;                     // unfinished, every predecessor run
  std::atomic<std::size_t> ready_count_{0};    // ready_.size(), for polling without the mutex
  std::atomic<ticket> submitted_{0};
  // Every ticket up to this has run (the oldest unfinished one's predecessor).
  std::atomic<ticket> all_finished_up_to_{0};
  unsigned int idle_threads_ = 0;
  bool stopping_ = false;
  bool blocking_;  // CUDA_LAUNCH_BLOCKING
  std::vector<std::thread> threads_;
};

// The device of this process, made at first use. It is never destroyed: at
// exit (std::atexit, registered when it is made, so before the destructors
// of the static objects made before it) it runs the work still queued, so a
// program that ends without synchronising still gets its kernels' effects
// and output. The runtime's own objects that work touches are never
// destroyed either, whatever their order of construction.
device_queue& the_device();

// For host calls that wait for the device: false (after a report) when
// called from a host function running on a device thread, where waiting
// may wait for itself; CUDA forbids CUDA calls there.
bool may_wait_for_device(const char* api);

}  // namespace cusim::detail
