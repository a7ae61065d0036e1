/* Finding (fuzz target spatial_queries, input raycast_end_point_on_slope.bin):
 * navstar_mesh_raycast, when nothing is hit, returns as `point` the point of the last
 * polygon nearest to `end` in 3D, not the point at the end of the ground segment. On a
 * sloped polygon with `end` above or below the surface the two differ in the ground
 * plane, so the answer does not lie at `t = 1` along the segment, against the docs
 * ("Where it stopped (xyz, with the mesh's height there)"; `t` is 1). A hit point is
 * placed on the wall at the right ground position; only the no-hit case is off.
 *
 *   cargo build -p navstar-capi && gcc -std=c99 -Iinclude fuzz/findings/raycast_end_point_on_slope.c \
 *       -Ltarget/debug -lnavstar -Wl,-rpath,"$PWD/target/debug" -lm && ./a.out
 *
 * Prints a point at ground (0.5, 0.25); (0.5, 0.5) with height 0.5 is expected. */
#include <math.h>
#include <stdio.h>
#include "navstar.h"

int main(void) {
    /* Y up: a ramp rising along z (height y = z) over [0,1] x [0,1]. */
    const float v[] = {0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1};
    const uint32_t idx[] = {0, 1, 2, 3}, sizes[] = {4};
    NavstarMesh *mesh;
    if (navstar_mesh_create(v, 4, idx, sizes, 1, NULL, &mesh) != NAVSTAR_OK)
        return 1;
    const float start[] = {0.5f, 0.25f, 0.25f}; /* on the ramp */
    const float end[] = {0.5f, 0.0f, 0.5f};     /* below the ramp, inside it in the ground plane */
    NavstarRaycastHit hit;
    if (navstar_mesh_raycast(mesh, start, end, NULL, &hit) != NAVSTAR_OK)
        return 1;
    printf("hit %u, t %g, point (%g, %g, %g)\n", (unsigned)hit.hit, hit.t, hit.point[0],
           hit.point[1], hit.point[2]);
    navstar_mesh_free(mesh);
    return fabsf(hit.point[2] - 0.5f) < 1e-4f ? 0 : 1;
}
