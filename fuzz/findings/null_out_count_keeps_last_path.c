/* Finding (found reading the harness's expectations; reproduced here):
 * navstar_find_path and navstar_find_nearest_target check `out_count` (and
 * `out_goal`) for NULL before they forget the query's last path, so a call that fails
 * with NAVSTAR_ERROR_NULL_ARGUMENT for them leaves the previous path readable:
 * navstar_query_path_info (and _details, _corridor) answer NAVSTAR_OK with the old
 * path. Their docs say they give NAVSTAR_ERROR_NO_PATH "when the last path call on
 * this query failed". (A failure for any other argument, e.g. a NaN start, does
 * forget it.)
 *
 *   cargo build -p navstar-capi && gcc -std=c99 -Iinclude fuzz/findings/null_out_count_keeps_last_path.c \
 *       -Ltarget/debug -lnavstar -Wl,-rpath,"$PWD/target/debug" -lm && ./a.out
 *
 * Prints NAVSTAR_OK twice after the failed calls; NAVSTAR_ERROR_NO_PATH is documented. */
#include <stdio.h>
#include "navstar.h"

int main(void) {
    const float v[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
    const uint32_t idx[] = {0, 1, 2, 3}, sizes[] = {4};
    NavstarMesh *mesh;
    NavstarQuery *query;
    if (navstar_mesh_create(v, 4, idx, sizes, 1, NULL, &mesh) != NAVSTAR_OK ||
        navstar_query_create(mesh, &query) != NAVSTAR_OK)
        return 1;
    const float start[] = {0.2f, 0, 0.2f}, goal[] = {0.8f, 0, 0.8f};
    float points[30];
    uint32_t count;
    NavstarPathInfo info;
    if (navstar_find_path(query, start, goal, NULL, points, 10, &count) != NAVSTAR_OK)
        return 1;
    NavstarStatus failed = navstar_find_path(query, start, goal, NULL, points, 10, NULL);
    NavstarStatus after = navstar_query_path_info(query, &info);
    printf("find_path(out_count NULL): %s; then path_info: %s\n",
           navstar_status_name(failed), navstar_status_name(after));
    failed = navstar_find_nearest_target(query, start, goal, 1, NULL, points, 10, &count, NULL);
    NavstarStatus after2 = navstar_query_path_info(query, &info);
    printf("find_nearest_target(out_goal NULL): %s; then path_info: %s\n",
           navstar_status_name(failed), navstar_status_name(after2));
    navstar_query_free(query);
    navstar_mesh_free(mesh);
    return after == NAVSTAR_ERROR_NO_PATH && after2 == NAVSTAR_ERROR_NO_PATH ? 0 : 1;
}
