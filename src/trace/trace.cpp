#include "trace/trace.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

#include <cusim/detail/builtins.hpp>
#include <cusim/profile.hpp>

#include "support/diagnostics.hpp"
#include "support/env.hpp"
#include "trace/records.hpp"

namespace cusim::detail::trace {

namespace {

// Enough for a long program's picture; past it, records are counted, not kept.
constexpr std::uint64_t record_limit = 4'000'000;

std::optional<std::string> trace_path() {
  auto path = env_string("CUSIM_TRACE");
  if (path && path->empty()) path.reset();
  return path;
}

const auto trace_began = std::chrono::steady_clock::now();

// Each OS thread records into its own buffer; the buffers outlive their
// threads, owned by the recorder, and are gathered at exit.
struct buffer {
  std::vector<record> records;
  unsigned int thread = 0;
};

struct recorder {
  std::mutex mutex;
  std::vector<std::unique_ptr<buffer>> buffers;
  std::map<std::uint64_t, grid_record> grids;
  std::map<const void*, std::uint64_t> stream_numbers;
  std::vector<std::string> stream_names;
  std::atomic<std::uint64_t> kept{0}, dropped{0};
  bool written = false;
};

recorder& the_recorder() {
  static recorder r;
  return r;
}

void write_at_exit();

buffer& my_buffer() {
  thread_local buffer* mine = [] {
    recorder& r = the_recorder();
    std::lock_guard lock(r.mutex);
    r.buffers.push_back(std::make_unique<buffer>());
    r.buffers.back()->thread = unsigned(r.buffers.size());
    return r.buffers.back().get();
  }();
  return *mine;
}

record* new_record(record::kind what) {
  recorder& r = the_recorder();
  if (r.kept.fetch_add(1, std::memory_order_relaxed) >= record_limit) {
    r.dropped.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  buffer& b = my_buffer();
  record& rec = b.records.emplace_back();
  rec.what = what;
  rec.thread = b.thread;
  return &rec;
}

void write_at_exit() {
  recorder& r = the_recorder();
  recorded everything;
  {
    std::lock_guard lock(r.mutex);
    if (r.written) return;
    r.written = true;
    for (auto& b : r.buffers) {
      everything.records.insert(everything.records.end(), std::make_move_iterator(b->records.begin()),
                                std::make_move_iterator(b->records.end()));
      b->records.clear();
    }
    for (auto& [serial, g] : r.grids) everything.grids.push_back(std::move(g));
    everything.stream_names = r.stream_names;
  }
  everything.dropped = r.dropped.load();
  const std::string path = *trace_path();
  if (!write_trace_file(path, everything)) return;
  report("trace: {} written ({} spans{}); open it in ui.perfetto.dev or chrome://tracing", path,
         everything.records.size(),
         everything.dropped != 0 ? fmt::format(", {} more left out past the limit of {}", everything.dropped,
                                               record_limit)
                                 : std::string());
}

bool start_tracing() {
  if (!trace_path()) return false;
  the_recorder();  // made before the handler is registered: destroyed after it runs
  std::atexit(write_at_exit);
  return true;
}

}  // namespace

const bool enabled = start_tracing();

std::int64_t now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - trace_began).count();
}

void note_grid(const grid_identity& grid) {
  recorder& r = the_recorder();
  std::lock_guard lock(r.mutex);
  auto [it, fresh] = r.grids.try_emplace(grid.serial);
  if (!fresh) return;
  grid_record& g = it->second;
  g.serial = grid.serial;
  g.kernel = grid.kernel;
  g.grid_dim = grid.grid;
  g.block_dim = grid.block;
  g.device = current_device();
  g.multiprocessors = active_profile().multiprocessor_count;
  g.flow = grid.flow;
}

void block(block_identity block, std::int64_t start, std::int64_t end) {
  if (record* rec = new_record(record::kind::block)) {
    rec->grid = block.grid;
    rec->linear = block.linear;
    rec->start = start;
    rec->end = end;
  }
}

void barrier(block_identity block, std::int64_t start, std::int64_t end, const char* file, unsigned int line) {
  if (record* rec = new_record(record::kind::barrier)) {
    rec->grid = block.grid;
    rec->linear = block.linear;
    rec->start = start;
    rec->end = end;
    rec->name = file;
    rec->line = line;
  }
}

void collective(block_identity block, unsigned int warp, const char* op, std::int64_t start, std::int64_t end,
                const char* file, unsigned int line) {
  if (record* rec = new_record(record::kind::collective)) {
    rec->grid = block.grid;
    rec->linear = block.linear;
    rec->warp = warp;
    rec->start = start;
    rec->end = end;
    rec->name = op;
    rec->text = file != nullptr ? fmt::format("{}:{}", file, line) : std::string();
  }
}

std::uint64_t device_launch(block_identity block) {
  static std::atomic<std::uint64_t> next_flow{1};
  const std::uint64_t flow = next_flow.fetch_add(1, std::memory_order_relaxed);
  if (record* rec = new_record(record::kind::launch)) {
    rec->grid = block.grid;
    rec->linear = block.linear;
    rec->id = flow;
    rec->start = rec->end = now();
  }
  return flow;
}

void host_call(const char* api, const char* detail, std::int64_t start, std::int64_t end) {
  if (current_thread != nullptr) return;  // cudaMalloc and the like called by device code
  if (record* rec = new_record(record::kind::host_call)) {
    rec->name = api;
    if (detail != nullptr) rec->text = detail;
    rec->start = start;
    rec->end = end;
  }
}

void stream_work(const void* stream, const std::string& what, std::int64_t start, std::int64_t end) {
  std::uint64_t number = 0;
  {
    recorder& r = the_recorder();
    std::lock_guard lock(r.mutex);
    auto [it, fresh] = r.stream_numbers.try_emplace(stream, r.stream_numbers.size() + 1);
    if (fresh) r.stream_names.push_back(stream == nullptr ? "default stream" : fmt::format("stream {}", it->second));
    number = it->second;
  }
  if (record* rec = new_record(record::kind::stream_work)) {
    rec->id = number;
    rec->start = start;
    rec->end = end;
    rec->text = what;
  }
}

}  // namespace cusim::detail::trace
