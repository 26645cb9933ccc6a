// Lays the recorded spans out as a GPU would have run them and writes the
// Chrome trace JSON (the "JSON Array/Object Format" that Perfetto and
// chrome://tracing read). Each multiprocessor of each emulated device is a
// process ("GPU 0 SM 5"); its threads are the block slots a block occupies
// while resident, and under each slot, one track per warp that ran
// collectives. Spans of one track nest: blocks on a slot never overlap,
// barrier waits lie within their block, and a warp's collectives follow one
// another.
#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "support/diagnostics.hpp"
#include "trace/records.hpp"

namespace cusim::detail::trace {

namespace {

constexpr int host_pid = 1;
constexpr int streams_pid = 2;
constexpr int first_sm_pid = 100;
constexpr int sm_pids_per_device = 1000;
constexpr unsigned int tids_per_slot = 64;  // the slot's own track, then one per warp (at most 32)

// Nanoseconds as exact microseconds, the trace's unit.
std::string micros(std::int64_t ns) { return fmt::format("{}.{:03}", ns / 1000, ns % 1000); }

// JSON string contents: quotes, backslashes and control characters escaped.
std::string escaped(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", c);
    } else {
      out += c;
    }
  }
  return out;
}

struct place {
  int pid = 0;
  unsigned int tid = 0;
  std::int64_t start = 0, end = 0;
};

class trace_writer {
 public:
  explicit trace_writer(std::FILE* file) : file_(file) { std::fputs("{\"traceEvents\": [\n", file_); }
  void finish(std::uint64_t dropped) {
    std::fprintf(file_, "\n], \"displayTimeUnit\": \"ns\", \"otherData\": {\"producer\": \"cusim\", "
                        "\"records_left_out\": \"%llu\"}}\n", static_cast<unsigned long long>(dropped));
  }
  void event(const std::string& body) {
    std::fputs(first_ ? "  {" : ",\n  {", file_);
    first_ = false;
    std::fputs(body.c_str(), file_);
    std::fputc('}', file_);
  }
  void span(const std::string& name, const char* category, int pid, unsigned int tid, std::int64_t start,
            std::int64_t end, const std::string& args) {
    event(fmt::format("\"name\": \"{}\", \"cat\": \"{}\", \"ph\": \"X\", \"pid\": {}, \"tid\": {}, \"ts\": {}, "
                      "\"dur\": {}, \"args\": {{{}}}",
                      escaped(name), category, pid, tid, micros(start), micros(std::max<std::int64_t>(end - start, 0)),
                      args));
  }
  void name_process(int pid, const std::string& name, int order) {
    event(fmt::format("\"name\": \"process_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": 0, \"args\": {{\"name\": "
                      "\"{}\"}}",
                      pid, escaped(name)));
    event(fmt::format("\"name\": \"process_sort_index\", \"ph\": \"M\", \"pid\": {}, \"tid\": 0, \"args\": "
                      "{{\"sort_index\": {}}}",
                      pid, order));
  }
  void name_thread(int pid, unsigned int tid, const std::string& name) {
    event(fmt::format("\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": {{\"name\": "
                      "\"{}\"}}",
                      pid, tid, escaped(name)));
    event(fmt::format("\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": "
                      "{{\"sort_index\": {}}}",
                      pid, tid, tid));
  }
  void flow(bool start, std::uint64_t id, const place& at, std::int64_t ts) {
    event(fmt::format("\"name\": \"device launch\", \"cat\": \"launch\", \"ph\": \"{}\", \"id\": {}, \"pid\": {}, "
                      "\"tid\": {}, \"ts\": {}{}",
                      start ? "s" : "f", id, at.pid, at.tid, micros(ts), start ? "" : ", \"bp\": \"e\""));
  }

 private:
  std::FILE* file_;
  bool first_ = true;
};

using block_key = std::pair<std::uint64_t, std::uint64_t>;  // grid serial, linear index
struct block_key_hash {
  std::size_t operator()(const block_key& k) const { return std::hash<std::uint64_t>()(k.first * 0x9e3779b97f4a7c15ull ^ k.second); }
};

// Places every block on a multiprocessor (linear index modulo their count,
// as a GPU first hands blocks out) and there on the lowest slot free when
// it started: the slots are the blocks resident at once.
std::unordered_map<block_key, place, block_key_hash> place_blocks(
    const std::vector<const record*>& blocks, const std::map<std::uint64_t, const grid_record*>& grids) {
  std::unordered_map<block_key, place, block_key_hash> placed;
  std::map<int, std::vector<std::int64_t>> slot_free_at;  // by pid
  for (const record* b : blocks) {
    const grid_record& g = *grids.at(b->grid);
    const int sm = int(b->linear % std::uint64_t(std::max(g.multiprocessors, 1)));
    const int pid = first_sm_pid + g.device * sm_pids_per_device + sm;
    std::vector<std::int64_t>& slots = slot_free_at[pid];
    auto slot = std::find_if(slots.begin(), slots.end(), [&](std::int64_t free_at) { return free_at <= b->start; });
    if (slot == slots.end()) slot = slots.insert(slots.end(), 0);
    *slot = b->end;
    placed[{b->grid, b->linear}] = place{pid, unsigned(slot - slots.begin()) * tids_per_slot, b->start, b->end};
  }
  return placed;
}

void write_device(trace_writer& out, const recorded& everything) {
  std::map<std::uint64_t, const grid_record*> grids;
  for (const grid_record& g : everything.grids) grids[g.serial] = &g;
  std::vector<const record*> blocks;
  for (const record& r : everything.records) {
    if (r.what == record::kind::block && grids.count(r.grid) != 0) blocks.push_back(&r);
  }
  std::sort(blocks.begin(), blocks.end(), [](const record* a, const record* b) {
    return std::tie(a->start, a->grid, a->linear) < std::tie(b->start, b->grid, b->linear);
  });
  const auto placed = place_blocks(blocks, grids);

  std::map<std::pair<int, unsigned int>, std::string> tracks;  // (pid, tid) -> name
  for (const record* b : blocks) {
    const grid_record& g = *grids.at(b->grid);
    const place& at = placed.at({b->grid, b->linear});
    tracks.try_emplace({at.pid, at.tid}, fmt::format("slot {}", at.tid / tids_per_slot));
    const std::uint64_t gx = g.grid_dim.x, gy = g.grid_dim.y;
    out.span(fmt::format("{} block ({},{},{})", g.kernel, b->linear % gx, b->linear / gx % gy, b->linear / (gx * gy)),
             "block", at.pid, at.tid, b->start, b->end,
             fmt::format("\"kernel\": \"{}\", \"grid\": [{},{},{}], \"block\": [{},{},{}], \"worker thread\": {}",
                         escaped(g.kernel), g.grid_dim.x, g.grid_dim.y, g.grid_dim.z, g.block_dim.x, g.block_dim.y,
                         g.block_dim.z, b->thread));
  }

  // Barrier waits within their block; each warp's collectives one after another.
  std::map<std::pair<int, unsigned int>, std::vector<const record*>> warp_tracks;
  for (const record& r : everything.records) {
    auto it = placed.find({r.grid, r.linear});
    if (it == placed.end()) continue;
    const place& at = it->second;
    if (r.what == record::kind::barrier) {
      out.span("__syncthreads", "barrier", at.pid, at.tid, std::clamp(r.start, at.start, at.end),
               std::clamp(r.end, at.start, at.end),
               r.name != nullptr ? fmt::format("\"at\": \"{}:{}\"", escaped(r.name), r.line) : std::string());
    } else if (r.what == record::kind::collective) {
      const unsigned int tid = at.tid + 1 + r.warp;
      tracks.try_emplace({at.pid, tid}, fmt::format("slot {} warp {}", at.tid / tids_per_slot, r.warp));
      warp_tracks[{at.pid, tid}].push_back(&r);
    }
  }
  for (auto& [track, spans] : warp_tracks) {
    std::sort(spans.begin(), spans.end(), [](const record* a, const record* b) { return a->start < b->start; });
    std::int64_t free_at = 0;
    for (const record* c : spans) {
      const std::int64_t start = std::max(c->start, free_at);
      const std::int64_t end = std::max(c->end, start);
      free_at = end;
      out.span(c->name, "warp collective", track.first, track.second, start, end,
               c->text.empty() ? std::string() : fmt::format("\"at\": \"{}\"", escaped(c->text)));
    }
  }

  // Arrows from each device-side launch to the child grid's first block.
  std::map<std::uint64_t, const place*> first_block_of_flow;
  for (const record* b : blocks) {
    const grid_record& g = *grids.at(b->grid);
    if (g.flow != 0) first_block_of_flow.try_emplace(g.flow, &placed.at({b->grid, b->linear}));
  }
  for (const record& r : everything.records) {
    if (r.what != record::kind::launch) continue;
    auto from = placed.find({r.grid, r.linear});
    auto to = first_block_of_flow.find(r.id);
    if (from == placed.end() || to == first_block_of_flow.end()) continue;
    out.flow(true, r.id, from->second, std::clamp(r.start, from->second.start, from->second.end));
    out.flow(false, r.id, *to->second, to->second->start);
  }

  std::map<int, bool> named;
  for (const auto& [track, name] : tracks) {
    if (!named[track.first]) {
      const int device = (track.first - first_sm_pid) / sm_pids_per_device;
      const int sm = (track.first - first_sm_pid) % sm_pids_per_device;
      out.name_process(track.first, fmt::format("GPU {} SM {}", device, sm), track.first);
      named[track.first] = true;
    }
    out.name_thread(track.first, track.second, name);
  }
}

void write_host(trace_writer& out, const recorded& everything) {
  std::map<unsigned int, bool> host_threads;
  std::map<std::uint64_t, bool> streams;
  for (const record& r : everything.records) {
    if (r.what == record::kind::host_call) {
      out.span(r.text.empty() ? std::string(r.name) : fmt::format("{} {}", r.name, r.text), "host API", host_pid,
               r.thread, r.start, r.end, "");
      host_threads[r.thread] = true;
    } else if (r.what == record::kind::stream_work) {
      out.span(r.text, "stream", streams_pid, unsigned(r.id), r.start, r.end, "");
      streams[r.id] = true;
    }
  }
  if (!host_threads.empty()) out.name_process(host_pid, "host", 0);
  for (const auto& [thread, yes] : host_threads) out.name_thread(host_pid, thread, fmt::format("thread {}", thread));
  if (!streams.empty()) out.name_process(streams_pid, "streams", 1);
  for (const auto& [number, yes] : streams) {
    out.name_thread(streams_pid, unsigned(number), everything.stream_names.at(number - 1));
  }
}

}  // namespace

bool write_trace_file(const std::string& path, recorded& everything) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) {
    report("trace: cannot write {} (CUSIM_TRACE): {}", path, std::strerror(errno));
    return false;
  }
  trace_writer out(file);
  write_host(out, everything);
  write_device(out, everything);
  out.finish(everything.dropped);
  const bool ok = std::fclose(file) == 0;
  if (!ok) report("trace: writing {} (CUSIM_TRACE) failed: {}", path, std::strerror(errno));
  return ok;
}

}  // namespace cusim::detail::trace
