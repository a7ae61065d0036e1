/* Finding (fuzz target save_load, input save_null_out_size_named_out_count.bin):
 * navstar_mesh_save with a NULL `out_size` returns NAVSTAR_ERROR_NULL_ARGUMENT, as it
 * should, but its message says "out_count is NULL": the shared reader of output arrays
 * named every count output `out_count`, and this function's is called `out_size`. The
 * docs promise a message that names the culprit.
 *
 *   cargo build -p navstar-capi && gcc -std=c99 -Iinclude fuzz/findings/save_null_out_size_named_out_count.c \
 *       -Ltarget/debug -lnavstar -Wl,-rpath,"$PWD/target/debug" && ./a.out
 *
 * Printed "navstar_mesh_save: out_count is NULL"; "... out_size is NULL" is expected. */
#include <stdio.h>
#include "navstar.h"

int main(void) {
    const float v[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1};
    const uint32_t idx[] = {0, 1, 2, 3}, sizes[] = {4};
    NavstarMesh *mesh;
    if (navstar_mesh_create(v, 4, idx, sizes, 1, NULL, &mesh) != NAVSTAR_OK)
        return 1;
    uint8_t buffer[8];
    NavstarStatus s = navstar_mesh_save(mesh, buffer, sizeof buffer, NULL);
    printf("%s: %s\n", navstar_status_name(s), navstar_last_error_message());
    navstar_mesh_free(mesh);
    return 0;
}
