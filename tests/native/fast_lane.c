/*
 * The exact mode's fast lane from C99: a self-checking caller of
 * navstar_mesh_prepare_fast_lane and navstar_query_set_fast_lane on the Iron Harvest map
 * (../shared/data/mesh/scene_mp_2p_01.mesh, 3860 polygons, Z up) and its scenario file,
 * whose problems give the shortest length. Run it from the package root.
 *
 *   fast_lane          the checks: NULLs and bad values are refused by name; preparing
 *                      reports an index; on every 10th problem the exact path has the same
 *                      corners (or, where two ways are equally short, the same length) with
 *                      the lane on and off, the file's length, and takes no search with the
 *                      lane on where the search with it off expands nodes. Each check
 *                      prints one line; the last is "N passed, M failed", and the exit
 *                      status is non-zero if M > 0.
 *   fast_lane on N     for measuring (valgrind --tool=callgrind): prepares the index, then
 *   fast_lane off N    answers the first N problems with the lane on or off, and prints
 *                      the nodes expanded and the summed length.
 */
#include "navstar.h"

#include "checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESH_FILE "../shared/data/mesh/scene_mp_2p_01.mesh"
#define SCENARIO_FILE MESH_FILE ".scen"
#define MAX_PROBLEMS 2000
#define ROOM 256

typedef struct Problem {
    float start[3];
    float goal[3];
    double length;
} Problem;

/* Reads up to MAX_PROBLEMS problems of the scenario file; returns how many. */
static int read_problems(Problem *problems) {
    FILE *file = fopen(SCENARIO_FILE, "r");
    char line[512];
    int count = 0;
    if (!file) {
        return 0;
    }
    if (!fgets(line, sizeof line, file)) { /* "version 1" */
        fclose(file);
        return 0;
    }
    while (count < MAX_PROBLEMS && fgets(line, sizeof line, file)) {
        char map[256];
        unsigned bucket, width, height;
        double sx, sy, gx, gy, length;
        if (sscanf(line, "%u %255s %u %u %lf %lf %lf %lf %lf", &bucket, map, &width, &height, &sx, &sy, &gx,
                   &gy, &length) != 9) {
            continue;
        }
        problems[count].start[0] = (float)sx;
        problems[count].start[1] = (float)sy;
        problems[count].start[2] = 0.0f;
        problems[count].goal[0] = (float)gx;
        problems[count].goal[1] = (float)gy;
        problems[count].goal[2] = 0.0f;
        problems[count].length = length;
        count++;
    }
    fclose(file);
    return count;
}

/* An exact-mode path: its status, corners (`points`, `*count`) and the nodes expanded. */
static NavstarStatus exact_path(NavstarQuery *query, const Problem *p, float points[3 * ROOM], uint32_t *count,
                                uint64_t *expanded) {
    NavstarPathOptions options = navstar_path_options_default();
    NavstarStatus status;
    options.mode = NAVSTAR_PATH_OPTIMAL;
    status = navstar_find_path(query, p->start, p->goal, &options, points, ROOM, count);
    *expanded = navstar_query_nodes_expanded(query);
    return status;
}

static double path_length(const float *points, uint32_t count) {
    double length = 0.0;
    uint32_t i;
    for (i = 1; i < count && i < ROOM; i++) {
        const double dx = (double)points[3 * i] - points[3 * i - 3];
        const double dy = (double)points[3 * i + 1] - points[3 * i - 2];
        const double dz = (double)points[3 * i + 2] - points[3 * i - 1];
        length += sqrt(dx * dx + dy * dy + dz * dz);
    }
    return length;
}

static int same_corners(const float *a, uint32_t a_count, const float *b, uint32_t b_count) {
    uint32_t i;
    if (a_count != b_count || a_count > ROOM) {
        return 0;
    }
    for (i = 0; i < 3 * a_count; i++) {
        if (fabsf(a[i] - b[i]) > 1e-5f) {
            return 0;
        }
    }
    return 1;
}

/* The refusals: NULL handles and values other than 0 and 1, each named. */
static void check_refusals(NavstarQuery *query) {
    uint32_t has = 7;
    expect_error(navstar_mesh_prepare_fast_lane(NULL, &has), NAVSTAR_ERROR_NULL_ARGUMENT, "mesh",
                 "prepare on a NULL mesh");
    check(has == 7, "nothing written after an error");
    expect_error(navstar_query_set_fast_lane(NULL, 1), NAVSTAR_ERROR_NULL_ARGUMENT, "query",
                 "set on a NULL query");
    expect_error(navstar_query_set_fast_lane(query, 2), NAVSTAR_ERROR_INVALID_ARGUMENT, "on", "on = 2");
    expect_error(navstar_query_set_fast_lane(query, 0xffffffffu), NAVSTAR_ERROR_INVALID_ARGUMENT, "4294967295",
                 "on = 4294967295");
}

/* Every 10th problem with the lane on (`lane`) and off (`search`). */
static void check_problems(NavstarQuery *lane, NavstarQuery *search, const Problem *problems, int count) {
    static float with[3 * ROOM], without[3 * ROOM];
    int i, bent = 0, answered = 0, searched = 0, ties = 0, wrong = 0;
    for (i = 0; i < count; i += 10) {
        uint32_t with_count = 0, without_count = 0;
        uint64_t with_expanded = 0, without_expanded = 0;
        double with_length, without_length;
        const NavstarStatus a = exact_path(lane, &problems[i], with, &with_count, &with_expanded);
        const NavstarStatus b = exact_path(search, &problems[i], without, &without_count, &without_expanded);
        if (a != NAVSTAR_OK || b != NAVSTAR_OK) {
            check(0, "problem %d: %s with the lane, %s without", i, navstar_status_name((int32_t)a),
                  navstar_status_name((int32_t)b));
            continue;
        }
        with_length = path_length(with, with_count);
        without_length = path_length(without, without_count);
        if (!same_corners(with, with_count, without, without_count)) {
            ties++;
            if (fabs(with_length - without_length) > 1e-5 * (without_length > 1.0 ? without_length : 1.0)) {
                wrong++;
                check(0, "problem %d: length %.6f with the lane, %.6f without", i, with_length, without_length);
            }
        }
        if (fabs(with_length - problems[i].length) > 1e-4 * (problems[i].length > 1.0 ? problems[i].length : 1.0)) {
            wrong++;
            check(0, "problem %d: length %.6f, the file's %.6f", i, with_length, problems[i].length);
        }
        if (with_count > 2) {
            bent++;
            answered += with_expanded == 0;
            searched += without_expanded > 0;
        }
    }
    check(wrong == 0, "%d problems: the same lengths with the lane on and off, and the file's", (count + 9) / 10);
    check(ties * 20 <= bent, "the same corners but for %d equally short ways of %d", ties, bent);
    check(bent >= 150 && answered * 10 >= bent * 9, "the index answered %d of %d bent paths", answered, bent);
    check(searched == bent, "with the lane off the search ran for %d of %d", searched, bent);
}

/* The measuring mode: the first `n` problems with the lane on or off. */
static int measure(NavstarQuery *query, const Problem *problems, int n, int on) {
    static float points[3 * ROOM];
    uint64_t expanded = 0;
    double length = 0.0;
    int i, complete = 0;
    if (navstar_query_set_fast_lane(query, on ? 1u : 0u) != NAVSTAR_OK) {
        return 1;
    }
    for (i = 0; i < n; i++) {
        uint32_t count = 0;
        uint64_t nodes = 0;
        if (exact_path(query, &problems[i], points, &count, &nodes) == NAVSTAR_OK) {
            complete++;
            length += path_length(points, count);
        }
        expanded += nodes;
    }
    printf("%d queries with the lane %s: %d complete, %llu nodes expanded, length %.3f\n", n, on ? "on" : "off",
           complete, (unsigned long long)expanded, length);
    return complete == n ? 0 : 1;
}

int main(int argc, char **argv) {
    static Problem problems[MAX_PROBLEMS];
    NavstarMesh *mesh = NULL;
    NavstarQuery *lane = NULL, *search = NULL;
    uint32_t has = 7;
    const int count = read_problems(problems);
    int status = 0;
    if (count != MAX_PROBLEMS) {
        printf("FAIL: %s holds %d problems (want %d)\n", SCENARIO_FILE, count, MAX_PROBLEMS);
        return 1;
    }
    if (navstar_mesh_load(MESH_FILE, NAVSTAR_FORMAT_AUTO, NULL, &mesh) != NAVSTAR_OK) {
        printf("FAIL: %s: %s\n", MESH_FILE, navstar_last_error_message());
        return 1;
    }
    expect_status(navstar_mesh_prepare_fast_lane(mesh, &has), NAVSTAR_OK, "prepare the fast lane");
    check(has == 1, "a plain mesh of one tile gets an index (%u)", has);
    expect_status(navstar_query_create(mesh, &lane), NAVSTAR_OK, "a query");
    if (argc == 3) {
        status = measure(lane, problems, atoi(argv[2]) < count ? atoi(argv[2]) : count, strcmp(argv[1], "on") == 0);
    } else {
        expect_status(navstar_query_create(mesh, &search), NAVSTAR_OK, "a second query");
        check_refusals(search);
        expect_status(navstar_query_set_fast_lane(search, 0), NAVSTAR_OK, "the lane off");
        check_problems(lane, search, problems, count);
        navstar_query_free(search);
        printf("%d passed, %d failed\n", passed, failed);
        status = failed > 0;
    }
    navstar_query_free(lane);
    navstar_mesh_free(mesh);
    return status;
}
