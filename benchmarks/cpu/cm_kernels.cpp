// The C for Metal row of benchmarks/cpu (dialect_kernels.h): the N-body
// step of examples/cm/nbody_genx.cpp (a kernel program file, built by
// run.sh with slmc++ --emit=program) through the example's own host code.
#include "../../examples/cm/nbody_host.h"

#include "best_of.h"
#include "dialect_kernels.h"

dialects::cm_nbody_result dialects::cm_nbody(const char *isa, int bodies, int group_threads,
                                             int reps) {
  cm_nbody_result r;
  NBodyHost host(isa, bodies);
  CmThreadGroupSpace *space = nullptr;
  cm_result_check(host.device->CreateThreadGroupSpace(group_threads, 1,
                                                      bodies / BODIES_CHUNK / group_threads,
                                                      1, space));
  CmEvent *event = nullptr;
  r.ms = best_of_ms(reps, [&] {
    if (event)
      cm_result_check(host.cmd_queue->DestroyEvent(event));
    cm_result_check(host.cmd_queue->EnqueueWithGroup(host.task, event, space));
    cm_result_check(event->WaitForTaskFinished());
  });
  host.read_result(event, r.new_pos, r.new_vel);
  cm_result_check(host.cmd_queue->DestroyEvent(event));
  cm_result_check(host.device->DestroyThreadGroupSpace(space));
  r.pos = host.pos;
  r.vel = host.vel;
  r.delta_time = delta_time;
  r.damping = damping;
  r.softening_squared = softening_squared;
  host.destroy();
  return r;
}
