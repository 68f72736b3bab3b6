// Sensor-frame preprocessing with the SYCL 2020 group functions: a stream of
// frames (three acceleration axes and a temperature as sycl::half4, plus a
// status word) is cut into blocks, one work-group each.
//
//  1. block_stats: per block, the energy sum/min/max, magnitude mean and
//     variance, a normalised magnitude (z-score) smoothed across the block,
//     bit summaries of the status words, a sensor histogram and each
//     event's rank in its block (work-group reductions and scans); per
//     sub-group, neighbour differences, a butterfly maximum, the sub-group's
//     share of the block's event ranks and its running energy (shuffles and
//     sub-group functions). Device helpers reach their work-item through
//     the free-function queries, and one of them keeps its own
//     group-local tile.
//  2. event_offsets: one work-group turns the per-block event counts into
//     output offsets (the joint algorithms).
//  3. compact: each block writes its events' frame indices at those
//     offsets (scans with an init value).
//  4. window_scan: energy prefix sums over windows of 32 frames written as
//     CUDA warp code is (lane = local id % 32), so the kernel requires
//     sub-groups of 32; a device without that size refuses it.
//
// Every result is recomputed on the host and compared: integers and the
// energies (exact for these inputs) exactly, the other floats and halves
// within a tolerance. Work-group sizes are multiples of 32, so every
// sub-group is full on any device (sizes 1, 8, 16 or 32).
//
//   group_features [local size = 128] [blocks = 24]
//
// Built with -DSUB_GROUP_SIZE=N, block_stats requires sub-groups of N
// ([[sycl::reqd_sub_group_size(N)]]); a device without N refuses it.
#define SYCL_SIMPLE_SWIZZLES
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace this_work_item = sycl::ext::oneapi::this_work_item;

#ifdef SUB_GROUP_SIZE
#define BLOCK_STATS_SUB_GROUP [[sycl::reqd_sub_group_size(SUB_GROUP_SIZE)]]
#else
#define BLOCK_STATS_SUB_GROUP
#endif

constexpr size_t kMaxLocal = 1024;  // largest work-group the tiles hold
constexpr int kSensors = 8;         // status byte 1: sensor id
constexpr float kEventEnergy = 20;  // an event: a valid frame above this
constexpr float kHotEnergy = 44;    // a block "runs hot" above this
constexpr float kTooWarm = 20.875f; // temperature alarm
constexpr int kLogStart = 3;        // the event log's first slots are taken

// Status word bytes: quality, sensor id, flags, sequence number.
enum : uint32_t { kValid = 1, kSaturated = 2, kAlarmBits = 0x3c };

struct BlockStats {
  float e_sum, e_min, e_max, m_mean, m_var, survive, peak_axis;
  sycl::half t_max;
  uint32_t any_flags, all_flags, parity;
  int events, first_event, last_event, alarms, e16;
  int summary; // bits: all valid, any saturated, any hot, none too warm, events valid
  int hist[kSensors];
};

struct FrameOut {
  sycl::half4 norm; // z-score, smoothed z-score, temperature - first one's, weight
  float slope, peak, joint_peak, mirror, sg_energy;
  int rank, rank2, incl2, cum16, sg_rank, lead_sensor, sg_flags, joint_flags;
  int lane, sg_size, sg_id, sg_count, sg_max;
};

// A frame's energy (squared acceleration) and whether it is an event.
inline float energy(sycl::float4 f) { return sycl::dot(f.xyz(), f.xyz()); }
inline bool is_event(float e, uint32_t status) {
  return ((status >> 16) & kValid) && e > kEventEnergy;
}

// ---- Device helpers (called at kernel scope) ---------------------------------------

/// This work-item's frame as floats; the work-item comes from the free
/// function query, as in code that does not pass an nd_item around.
sycl::float4 load_frame(const sycl::half4 *frames) {
  sycl::nd_item<1> it = this_work_item::get_nd_item<1>();
  return frames[it.get_global_id(0)].convert<float>();
}

/// A [1 2 1]/4 filter across the work-group (edges repeat), through a
/// group-local row of its own.
float block_smooth(float v) {
  sycl::group<1> g = this_work_item::get_work_group<1>();
  auto &row = *sycl::ext::oneapi::group_local_memory_for_overwrite<float[kMaxLocal]>(g);
  const size_t l = g.get_local_linear_id(), n = g.get_local_linear_range();
  row[l] = v;
  sycl::group_barrier(g);
  const float left = row[l > 0 ? l - 1 : l], right = row[l + 1 < n ? l + 1 : l];
  return sycl::mad(left + right, 0.25f, v * 0.5f);
}

/// Neighbour differences and sub-group summaries, by shuffles.
void lane_features(float e, int event, int block_rank, uint32_t sensor, FrameOut &o) {
  sycl::sub_group sg = this_work_item::get_sub_group();
  const uint32_t lane = sg.get_local_linear_id(), size = sg.get_local_linear_range();
  // Central difference; the sub-group's ends use their own value.
  const float next = sycl::shift_group_left(sg, e, 1), prev = sycl::shift_group_right(sg, e, 1);
  o.slope = (lane + 1 < size ? next : e) - (lane > 0 ? prev : e);
  // Butterfly maximum (sub-group sizes are powers of two).
  float peak = e;
  for (uint32_t mask = size / 2; mask > 0; mask /= 2)
    peak = sycl::fmax(peak, sycl::permute_group_by_xor(sg, peak, mask));
  o.peak = peak;
  o.mirror = sycl::select_from_group(sg, e, sycl::id<1>(size - 1 - lane));
  o.sg_energy = sycl::reduce_over_group(sg, e, sycl::plus<float>());
  o.sg_rank = sycl::exclusive_scan_over_group(sg, event, sycl::plus<int>());
  // The block's ranks again: the sub-group's scan offset by its first rank.
  const int base = sycl::group_broadcast(sg, block_rank);
  o.rank2 = sycl::exclusive_scan_over_group(sg, event, base, sycl::plus<int>());
  o.incl2 = sycl::inclusive_scan_over_group(sg, event, sycl::plus<int>(), base);
  o.lead_sensor = int(sycl::group_broadcast(sg, sensor, 0u));
  o.sg_flags = int(sycl::any_of_group(sg, event != 0)) |
               int(sycl::all_of_group(sg, e, [](float v) { return v > 8; })) << 1 |
               int(sycl::none_of_group(sg, e == 0.0f)) << 2 |
               int(sycl::inclusive_scan_over_group(sg, event, sycl::maximum<int>()) > 0) << 3;
  o.lane = int(lane);
  o.sg_size = int(size);
  o.sg_id = int(sg.get_group_linear_id());
  o.sg_count = int(sg.get_group_linear_range());
  o.sg_max = int(sg.get_max_local_range()[0]);
}

int main(int argc, char **argv) {
  const size_t L = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 128;
  const size_t G = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 24;
  if (L == 0 || L % 32 != 0 || L > kMaxLocal || G == 0) {
    std::fprintf(stderr, "group_features: local size must be a multiple of 32 up to %zu, "
                         "blocks positive\n", kMaxLocal);
    return 2;
  }
  const size_t n = G * L;

  // Frames: axes in quarters within [-4, 4] (so energies are exact in
  // float), temperatures in eighths around 20.
  std::vector<sycl::half4> frames(n);
  std::vector<uint32_t> status(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t h = uint32_t(i) * 2654435761u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    auto axis = [&](int k) { return float(int((h >> (k * 6)) % 33) - 16) * 0.25f; };
    frames[i] = sycl::half4(axis(0), axis(1), axis(2),
                            20.0f + float(int((h >> 18) % 17) - 8) * 0.125f);
    uint32_t flags = ((h >> 7) % 32 != 0 ? kValid : 0) | ((h >> 3) % 97 == 0 ? kSaturated : 0) |
                     (((h >> 23) % 16) << 2);
    status[i] = (200 + h % 56) | (h >> 27) % kSensors << 8 | flags << 16 | (i & 255) << 24;
  }

  std::vector<BlockStats> blocks(G);
  std::vector<FrameOut> out(n);
  std::vector<float> lane_cum(n);
  std::vector<int> offsets(G), ends(G), e_before(G), e_through(G), log_ends(G);
  std::vector<int> windows(2 * n);
  int summary[5] = {};
  std::vector<int> log;
  size_t sg_size = 0;
  bool warp_ran = false, warp_refused = false, has32 = false;
  try {
    sycl::queue q;
    const sycl::device dev = q.get_device();
    if (L > dev.get_info<sycl::info::device::max_work_group_size>()) {
      std::printf("group_features: local size %zu is too large for this device\n", L);
      return 2;
    }
    for (size_t s : dev.get_info<sycl::info::device::sub_group_sizes>())
      has32 = has32 || s == 32;

    sycl::half4 *d_frames = sycl::malloc_device<sycl::half4>(n, q);
    uint32_t *d_status = sycl::malloc_device<uint32_t>(n, q);
    BlockStats *d_blocks = sycl::malloc_shared<BlockStats>(G, q);
    FrameOut *d_out = sycl::malloc_shared<FrameOut>(n, q);
    float *d_cum = sycl::malloc_shared<float>(n, q);
    int *counts = sycl::malloc_shared<int>(G, q);
    int *e16 = sycl::malloc_shared<int>(G, q);
    int *flags = sycl::malloc_shared<int>(G, q);
    int *d_offsets = sycl::malloc_shared<int>(G, q);
    int *d_ends = sycl::malloc_shared<int>(G, q);
    int *d_before = sycl::malloc_shared<int>(G, q);
    int *d_through = sycl::malloc_shared<int>(G, q);
    int *d_log_ends = sycl::malloc_shared<int>(G, q);
    int *d_summary = sycl::malloc_shared<int>(5, q);
    int *d_log = sycl::malloc_shared<int>(kLogStart + n, q);
    int *d_windows = sycl::malloc_shared<int>(2 * n, q);
    q.memcpy(d_frames, frames.data(), n * sizeof(sycl::half4));
    q.memcpy(d_status, status.data(), n * sizeof(uint32_t));
    q.fill(d_log, -1, kLogStart + n).wait();

    // 1. Block statistics.
    q.parallel_for<class block_stats>(sycl::nd_range<1>(n, L),
                                      [=](sycl::nd_item<1> it) BLOCK_STATS_SUB_GROUP {
      sycl::group<1> g = it.get_group();
      const size_t i = it.get_global_id(0), l = it.get_local_id(0), b = g.get_group_linear_id();
      const float count = float(g.get_local_linear_range());

      const sycl::float4 f = load_frame(d_frames);
      const uint32_t st = d_status[i];
      const sycl::uchar4 bytes = sycl::vec<uint32_t, 1>(st).as<sycl::uchar4>();
      const uint32_t sensor = bytes.y(), fl = bytes.z();
      const float e = energy(f), m = sycl::sqrt(e);
      const int event = is_event(e, st);

      // Energies: exact sums, minimum and maximum.
      const float e_sum = sycl::reduce_over_group(g, e, sycl::plus<float>());
      const float e_min = sycl::reduce_over_group(g, e, sycl::minimum<float>());
      const float e_max = sycl::reduce_over_group(g, e, sycl::maximum<>());
      // Magnitudes: mean, variance, a clamped z-score, smoothed over the block.
      const float mean = sycl::reduce_over_group(g, m, sycl::plus<>()) / count;
      const float var = sycl::reduce_over_group(g, (m - mean) * (m - mean), sycl::plus<>()) / count;
      const float z = sycl::clamp((m - mean) * sycl::rsqrt(var + 1e-6f), -3.0f, 3.0f);
      const float zs = block_smooth(z);
      // The largest single-axis reading of the block.
      const sycl::marray<float, 3> axes = sycl::fabs(sycl::marray<float, 3>(f.x(), f.y(), f.z()));
      const float peak_axis = sycl::reduce_over_group(
          g, sycl::fmax(sycl::fmax(axes[0], axes[1]), axes[2]), sycl::maximum<float>());
      // Temperatures stay in half: the block's first and warmest.
      const sycl::half t = f.convert<sycl::half>().w();
      const sycl::half t0 = sycl::group_broadcast(g, t);
      const sycl::half t_max = sycl::reduce_over_group(g, t, sycl::maximum<sycl::half>());
      const float weight = sycl::native::exp(-e * (1.0f / 64));

      // Status words: flags seen, flags always set, parity, alarm bit count.
      const uint32_t any_flags = sycl::reduce_over_group(g, fl, sycl::bit_or<uint32_t>());
      const uint32_t all_flags = sycl::reduce_over_group(g, fl, sycl::bit_and<>());
      const uint32_t parity = sycl::reduce_over_group(g, st, sycl::bit_xor<uint32_t>());
      const int alarms =
          sycl::reduce_over_group(g, int(sycl::popcount(fl & kAlarmBits)), sycl::plus<int>());
      // Probability that no frame failed, from each frame's quality byte.
      const float survive = sycl::reduce_over_group(
          g, 1.0f - float(255 - bytes.x()) * (1.0f / 65536), sycl::multiplies<float>());
      const bool all_valid = sycl::reduce_over_group(g, (fl & kValid) != 0, sycl::logical_and<bool>());
      const bool any_sat = sycl::reduce_over_group(g, (fl & kSaturated) != 0, sycl::logical_or<>());
      const bool hot = sycl::any_of_group(g, e, [](float v) { return v > kHotEnergy; });
      const bool calm = sycl::none_of_group(g, t > sycl::half(kTooWarm));
      const bool valid_events = sycl::all_of_group(g, !event || (fl & kValid));

      // Events: rank in the block, count, first and last.
      const int rank = sycl::exclusive_scan_over_group(g, event, sycl::plus<int>());
      const int events = sycl::reduce_over_group(g, event, sycl::plus<>());
      const int first = sycl::reduce_over_group(g, event ? int(i) : int(n), sycl::minimum<int>());
      const int last = sycl::reduce_over_group(g, event ? int(i) : -1, sycl::maximum<int>());
      const int cum16 = sycl::inclusive_scan_over_group(g, int(e * 16), sycl::plus<int>());

      // Sensor histogram in group-local memory (zeroed by group_local_memory).
      int *hist = *sycl::ext::oneapi::group_local_memory<int[kSensors]>(g);
      sycl::atomic_ref<int, sycl::memory_order::relaxed, sycl::memory_scope::work_group,
                       sycl::access::address_space::local_space>(hist[sensor])
          .fetch_add(1);
      // Energies in a group-local tile, read back per sub-group.
      auto &tile = *sycl::ext::oneapi::group_local_memory_for_overwrite<float[kMaxLocal]>(g);
      tile[l] = e;

      FrameOut &o = d_out[i];
      lane_features(e, event, rank, sensor, o);
      sycl::sub_group sg = it.get_sub_group();
      sycl::group_barrier(sg); // the sub-group's part of the tile is written
      const size_t lane = sg.get_local_linear_id(), size = sg.get_local_linear_range();
      const float *mine = &tile[l - lane];
      o.joint_peak = sycl::joint_reduce(sg, mine, mine + size, sycl::maximum<float>());
      sycl::joint_inclusive_scan(sg, mine, mine + size, d_cum + (i - lane), sycl::plus<float>());
      o.joint_flags =
          int(sycl::joint_any_of(sg, mine, mine + size, [](float v) { return v > kHotEnergy; })) |
          int(sycl::joint_all_of(sg, mine, mine + size, [](float v) { return v > 2; })) << 1 |
          int(sycl::joint_none_of(sg, mine, mine + size, [](float v) { return v < 1; })) << 2;

      // Normalised frame: z-score, smoothed z-score, temperature change, weight.
      sycl::float4 norm;
      norm.xy() = sycl::float2(z, zs);
      norm.zw() = sycl::float2(float(t - t0), weight);
      o.norm = norm.convert<sycl::half, sycl::rounding_mode::rte>();
      o.rank = rank;
      o.cum16 = cum16;

      sycl::group_barrier(g); // every histogram increment is done
      if (g.leader()) {
        BlockStats &s = d_blocks[b];
        s.e_sum = e_sum; s.e_min = e_min; s.e_max = e_max;
        s.m_mean = mean; s.m_var = var; s.survive = survive; s.peak_axis = peak_axis;
        s.t_max = t_max;
        s.any_flags = any_flags; s.all_flags = all_flags; s.parity = parity;
        s.events = events; s.first_event = first; s.last_event = last; s.alarms = alarms;
        s.e16 = int(e_sum * 16);
        s.summary = int(all_valid) | int(any_sat) << 1 | int(hot) << 2 | int(calm) << 3 |
                    int(valid_events) << 4;
        for (int k = 0; k < kSensors; ++k) s.hist[k] = hist[k];
        counts[b] = events;
        e16[b] = s.e16;
        flags[b] = s.summary;
      }
    });

    // 2. Offsets of each block's events in the log (one work-group).
    const size_t scan_items = std::min<size_t>(256, dev.get_info<sycl::info::device::max_work_group_size>());
    q.parallel_for<class event_offsets>(sycl::nd_range<1>(scan_items, scan_items),
                                        [=](sycl::nd_item<1> it) {
      sycl::group<1> g = it.get_group();
      sycl::joint_exclusive_scan(g, counts, counts + G, d_offsets, kLogStart, sycl::plus<int>());
      sycl::joint_inclusive_scan(g, counts, counts + G, d_ends, sycl::plus<int>(), kLogStart);
      sycl::joint_exclusive_scan(g, e16, e16 + G, d_before, sycl::plus<int>());
      sycl::joint_inclusive_scan(g, e16, e16 + G, d_through, sycl::plus<>());
      const int total = sycl::joint_reduce(g, counts, counts + G, sycl::plus<>());
      const int busiest = sycl::joint_reduce(g, counts, counts + G, 0, sycl::maximum<int>());
      const bool any_hot = sycl::joint_any_of(g, flags, flags + G, [](int s) { return (s & 4) != 0; });
      const bool all_valid = sycl::joint_all_of(g, flags, flags + G, [](int s) { return s & 1; });
      const bool none_warm = sycl::joint_none_of(g, flags, flags + G, [](int s) { return !(s & 8); });
      if (g.leader()) {
        d_summary[0] = total; d_summary[1] = busiest; d_summary[2] = any_hot;
        d_summary[3] = all_valid; d_summary[4] = none_warm;
      }
    });

    // 3. Compaction: each event's frame index at its block's offset.
    q.parallel_for<class compact>(sycl::nd_range<1>(n, L), [=](sycl::nd_item<1> it) {
      sycl::group<1> g = it.get_group();
      const size_t i = it.get_global_id(0), b = g.get_group_linear_id();
      const int event = is_event(energy(d_frames[i].convert<float>()), d_status[i]);
      const int slot = sycl::exclusive_scan_over_group(g, event, d_offsets[b], sycl::plus<int>());
      const int end = sycl::inclusive_scan_over_group(g, event, sycl::plus<int>(), d_offsets[b]);
      if (event)
        d_log[slot] = int(i);
      if (it.get_local_id(0) == it.get_local_range(0) - 1)
        d_log_ends[b] = end;
    });

    // 4. Energy prefix sums over windows of 32 frames, as warp code.
    try {
      q.parallel_for<class window_scan>(sycl::nd_range<1>(n, L), [=](sycl::nd_item<1> it)
                                            [[sycl::reqd_sub_group_size(32)]] {
        sycl::sub_group sg = it.get_sub_group();
        const size_t i = it.get_global_id(0);
        const int lane = int(it.get_local_id(0) % 32); // threadIdx.x % warpSize
        int v = int(energy(d_frames[i].convert<float>()) * 16);
        for (int d = 1; d < 32; d *= 2) {
          const int y = sycl::shift_group_right(sg, v, d);
          if (lane >= d)
            v += y;
        }
        d_windows[2 * i] = v;
        d_windows[2 * i + 1] = sycl::select_from_group(sg, v, sycl::id<1>(31));
      });
      warp_ran = true;
    } catch (const sycl::exception &e) {
      if (has32 || e.code() != sycl::errc::kernel_not_supported)
        throw;
      warp_refused = true;
    }
    q.wait_and_throw();

    std::copy(d_blocks, d_blocks + G, blocks.begin());
    std::copy(d_out, d_out + n, out.begin());
    std::copy(d_cum, d_cum + n, lane_cum.begin());
    std::copy(d_offsets, d_offsets + G, offsets.begin());
    std::copy(d_ends, d_ends + G, ends.begin());
    std::copy(d_before, d_before + G, e_before.begin());
    std::copy(d_through, d_through + G, e_through.begin());
    std::copy(d_log_ends, d_log_ends + G, log_ends.begin());
    std::copy(d_summary, d_summary + 5, summary);
    log.assign(d_log, d_log + kLogStart + n);
    std::copy(d_windows, d_windows + 2 * n, windows.begin());
    sg_size = size_t(out[0].sg_size);
    for (void *p : {(void *)d_frames, (void *)d_status, (void *)d_blocks, (void *)d_out,
                    (void *)d_cum, (void *)counts, (void *)e16, (void *)flags,
                    (void *)d_offsets, (void *)d_ends, (void *)d_before, (void *)d_through,
                    (void *)d_log_ends, (void *)d_summary, (void *)d_log, (void *)d_windows})
      sycl::free(p, q);
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "group_features: SYCL exception: %s\n", e.what());
    return 1;
  }

  // ---- The host's results -------------------------------------------------------------
  size_t bad = 0;
  auto fail = [&](const char *what, size_t at, double got, double want) {
    if (bad++ < 12)
      std::printf("mismatch: %s at %zu: got %.9g, want %.9g\n", what, at, got, want);
  };
  auto exact = [&](const char *what, size_t at, double got, double want) {
    if (got != want) fail(what, at, got, want);
  };
  auto near = [&](const char *what, size_t at, double got, double want, double tol) {
    if (!(std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want)))) fail(what, at, got, want);
  };
  if (sg_size == 0 || L % sg_size != 0)
    fail("sub-group size", 0, double(sg_size), 32);
  if (warp_ran && !has32)
    fail("window_scan ran without sub-group size 32", 0, 1, 0);
  const size_t S = sg_size ? sg_size : 1;

  std::vector<float> e(n), m(n);
  std::vector<int> ev(n), expected_log(kLogStart + n, -1);
  int total = 0, busiest = 0, log_at = kLogStart, e_run = 0;
  bool any_hot = false, all_valid_all = true, none_warm = true;
  for (size_t b = 0; b < G; ++b) {
    const size_t b0 = b * L;
    float e_sum = 0, e_min = 1e30f, e_max = -1, peak_axis = 0;
    double m_sum = 0, var = 0, survive = 1;
    sycl::half t_max = frames[b0].w();
    uint32_t any_flags = 0, all_flags = ~0u, parity = 0;
    int events = 0, first = int(n), last = -1, alarms = 0, hist[kSensors] = {};
    bool all_valid = true, any_sat = false, hot = false, calm = true;
    for (size_t i = b0; i < b0 + L; ++i) {
      const float x = frames[i].x(), y = frames[i].y(), z = frames[i].z();
      e[i] = x * x + y * y + z * z;
      m[i] = std::sqrt(e[i]);
      ev[i] = (status[i] >> 16 & kValid) && e[i] > kEventEnergy;
      const uint32_t fl = status[i] >> 16 & 255;
      e_sum += e[i]; e_min = std::min(e_min, e[i]); e_max = std::max(e_max, e[i]);
      peak_axis = std::max({peak_axis, std::fabs(x), std::fabs(y), std::fabs(z)});
      m_sum += m[i];
      survive *= 1.0 - double(255 - (status[i] & 255)) / 65536;
      if (frames[i].w() > t_max) t_max = frames[i].w();
      any_flags |= fl; all_flags &= fl; parity ^= status[i];
      alarms += __builtin_popcount(fl & kAlarmBits);
      ++hist[status[i] >> 8 & 255];
      all_valid &= (fl & kValid) != 0; any_sat |= (fl & kSaturated) != 0;
      hot |= e[i] > kHotEnergy; calm &= !(float(frames[i].w()) > kTooWarm);
      exact("rank", i, out[i].rank, events);
      if (ev[i]) {
        expected_log[log_at++] = int(i);
        first = std::min(first, int(i));
        last = int(i);
      }
      events += ev[i];
    }
    const double mean = m_sum / L;
    for (size_t i = b0; i < b0 + L; ++i) var += (m[i] - mean) * (m[i] - mean);
    var /= L;
    const BlockStats &s = blocks[b];
    exact("energy sum", b, s.e_sum, e_sum);
    exact("energy min", b, s.e_min, e_min);
    exact("energy max", b, s.e_max, e_max);
    exact("peak axis", b, s.peak_axis, peak_axis);
    near("magnitude mean", b, s.m_mean, mean, 1e-5);
    near("magnitude variance", b, s.m_var, var, 1e-4);
    near("survival", b, s.survive, survive, 1e-4);
    exact("warmest", b, float(s.t_max), float(t_max));
    exact("flags seen", b, s.any_flags, any_flags);
    exact("flags always set", b, s.all_flags, all_flags);
    exact("parity", b, s.parity, parity);
    exact("events", b, s.events, events);
    exact("first event", b, s.first_event, first);
    exact("last event", b, s.last_event, last);
    exact("alarm bits", b, s.alarms, alarms);
    exact("summary", b, s.summary,
          int(all_valid) | int(any_sat) << 1 | int(hot) << 2 | int(calm) << 3 | 1 << 4);
    for (int k = 0; k < kSensors; ++k) exact("sensor histogram", b * kSensors + k, s.hist[k], hist[k]);
    // Offsets, ends and energies across blocks.
    exact("offset", b, offsets[b], kLogStart + total);
    exact("energy before", b, e_before[b], e_run);
    total += events;
    busiest = std::max(busiest, events);
    e_run += int(e_sum * 16);
    exact("end", b, ends[b], kLogStart + total);
    exact("compaction end", b, log_ends[b], kLogStart + total);
    exact("energy through", b, e_through[b], e_run);
    any_hot |= hot; all_valid_all &= all_valid; none_warm &= calm;

    // Per frame: normalised values, then the sub-group results.
    const float sd_inv = float(1 / std::sqrt(var + 1e-6));
    std::vector<float> z(L);
    for (size_t l = 0; l < L; ++l)
      z[l] = std::min(3.0f, std::max(-3.0f, float((m[b0 + l] - mean) * sd_inv)));
    int cum16 = 0;
    for (size_t l = 0; l < L; ++l) {
      const size_t i = b0 + l;
      const FrameOut &o = out[i];
      const float zs = (z[l > 0 ? l - 1 : l] + z[l + 1 < L ? l + 1 : l]) * 0.25f + z[l] * 0.5f;
      near("z-score", i, float(o.norm.x()), z[l], 4e-3);
      near("smoothed z-score", i, float(o.norm.y()), zs, 4e-3);
      exact("temperature change", i, float(o.norm.z()), float(frames[i].w() - frames[b0].w()));
      near("weight", i, float(o.norm.w()), std::exp(-e[i] / 64.0), 2e-3);
      cum16 += int(e[i] * 16);
      exact("cumulative energy", i, o.cum16, cum16);

      const size_t lane = l % S, s0 = i - lane;
      float next = e[lane + 1 < S ? i + 1 : i], prev = e[lane > 0 ? i - 1 : i];
      float peak = 0, sum = 0, run = 0;
      int sg_rank = 0, any_ev = 0, ev_so_far = 0, all_gt8 = 1, none_zero = 1, any_hot_k = 0, all_gt2 = 1,
          none_lt1 = 1;
      for (size_t k = s0; k < s0 + S; ++k) {
        peak = std::max(peak, e[k]);
        sum += e[k];
        if (k < i) sg_rank += ev[k];
        if (k <= i) run += e[k], ev_so_far |= ev[k];
        any_ev |= ev[k];
        all_gt8 &= e[k] > 8;
        none_zero &= e[k] != 0;
        any_hot_k |= e[k] > kHotEnergy;
        all_gt2 &= e[k] > 2;
        none_lt1 &= !(e[k] < 1);
      }
      exact("lane", i, o.lane, double(lane));
      exact("sub-group size", i, o.sg_size, double(S));
      const size_t sg_id = l / S, sg_count = L / S; // whole sub-groups
      exact("sub-group id", i, o.sg_id, double(sg_id));
      exact("sub-groups", i, o.sg_count, double(sg_count));
      exact("sub-group max size", i, o.sg_max, double(S));
      exact("slope", i, o.slope, next - prev);
      exact("butterfly peak", i, o.peak, peak);
      exact("joint_reduce peak", i, o.joint_peak, peak);
      exact("mirror", i, o.mirror, e[s0 + S - 1 - lane]);
      exact("sub-group energy", i, o.sg_energy, sum);
      exact("sub-group running energy", i, lane_cum[i], run);
      exact("sub-group rank", i, o.sg_rank, sg_rank);
      exact("rank (sub-group scan + base)", i, o.rank2, out[i].rank);
      exact("inclusive rank", i, o.incl2, out[i].rank + ev[i]);
      exact("lead sensor", i, o.lead_sensor, status[s0] >> 8 & 255);
      exact("sub-group flags", i, o.sg_flags, any_ev | all_gt8 << 1 | none_zero << 2 | ev_so_far << 3);
      exact("joint flags", i, o.joint_flags, any_hot_k | all_gt2 << 1 | none_lt1 << 2);
    }
  }
  exact("events in all", 0, summary[0], total);
  exact("busiest block", 0, summary[1], busiest);
  exact("any block hot", 0, summary[2], any_hot);
  exact("all blocks valid", 0, summary[3], all_valid_all);
  exact("no block warm", 0, summary[4], none_warm);
  for (size_t k = 0; k < log.size(); ++k)
    exact("event log", k, log[k], expected_log[k]);
  if (warp_ran)
    for (size_t i = 0; i < n; ++i) {
      int run = 0, all = 0;
      for (size_t k = i / 32 * 32; k < i / 32 * 32 + 32; ++k) {
        if (k <= i) run += int(e[k] * 16);
        all += int(e[k] * 16);
      }
      exact("window prefix", i, windows[2 * i], run);
      exact("window total", i, windows[2 * i + 1], all);
    }

  std::printf("group_features: %zu frames, %zu blocks of %zu, sub-groups of %zu, %d events; "
              "window_scan (sub-groups of 32): %s\n",
              n, G, L, S, total, warp_ran ? "checked" : "not on this device");
  std::printf("group_features: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
