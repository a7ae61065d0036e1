// SPDX-License-Identifier: MIT
//
// The C ABI of navstar (include/navstar.h), declared for P/Invoke. Every type that
// crosses is blittable, so a call marshals nothing and allocates nothing.

using System;
using System.Runtime.InteropServices;
using System.Security;

namespace Navstar
{
    [SuppressUnmanagedCodeSecurity]
    internal static unsafe class NativeMethods
    {
#if UNITY_IOS && !UNITY_EDITOR
        // iOS links native plugins statically (libnavstar.a).
        internal const string Library = "__Internal";
#else
        // libnavstar.so (Linux, Android), libnavstar.dylib (macOS), navstar.dll (Windows).
        internal const string Library = "navstar";
#endif

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_version();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr navstar_last_error_message();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern IntPtr navstar_status_name(int status);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern MeshOptions navstar_mesh_options_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern PathOptions navstar_path_options_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_create(
            float* vertices, uint vertexCount, uint* indices, uint* polygonSizes, uint polygonCount,
            MeshOptions* options, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_create_from_grid(
            byte* cells, uint width, uint height, float cellSize, float* origin,
            MeshOptions* options, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void navstar_mesh_free(IntPtr mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_mesh_polygon_count(NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_mesh_vertex_count(NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_create(NavstarMesh mesh, out NavstarQuery query);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void navstar_query_free(IntPtr query);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_find_path(
            NavstarQuery query, float* start, float* goal, PathOptions* options,
            float* outPoints, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern QueryOptions navstar_query_options_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_create_ex(
            NavstarMesh mesh, QueryOptions* options, out NavstarQuery query);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern ulong navstar_query_scratch_bytes(NavstarQuery query);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern ulong navstar_query_nodes_expanded(NavstarQuery query);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_set_landmarks(NavstarQuery query, uint mode);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_prepare_landmarks(NavstarMesh mesh, out uint hasTable);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_prepare_landmarks(NavstarWorld world, out uint hasTable);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_prepare_fast_lane(NavstarWorld world, out uint hasIndex);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_set_fast_lane(NavstarQuery query, uint on);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_prepare_fast_lane(NavstarMesh mesh, out uint hasIndex);

        // The binary format (.navstar).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_save(NavstarMesh mesh, byte* buffer, uint capacity, out uint size);

        // `path`: NUL-terminated UTF-8 (marshalled by the caller: Unity's Mono predates LPUTF8Str).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_load_navstar(byte* path, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_load_navstar_bytes(byte* bytes, uint size, out NavstarMesh mesh);

        // The raw forms, with plain pointers for every handle (NULL included).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "navstar_mesh_create")]
        internal static extern Status navstar_mesh_create_raw(
            float* vertices, uint vertexCount, uint* indices, uint* polygonSizes, uint polygonCount,
            MeshOptions* options, IntPtr* outMesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "navstar_query_create")]
        internal static extern Status navstar_query_create_raw(IntPtr mesh, IntPtr* outQuery);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, EntryPoint = "navstar_find_path")]
        internal static extern Status navstar_find_path_raw(
            IntPtr query, float* start, float* goal, PathOptions* options,
            float* outPoints, uint capacity, uint* count);

        // Filters, flags, links, path details and mesh queries (NavstarQueries.cs).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern QueryFilter navstar_query_filter_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern OffMeshLink navstar_off_mesh_link_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern MeshInput navstar_mesh_input_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_create_ex(MeshInput* input, MeshOptions* options, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_set_polygon_flags(NavstarMesh mesh, uint polygon, uint flags, uint* previous);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_info(NavstarMesh mesh, uint polygon, out uint flags, out uint area);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_set_link_flags(NavstarMesh mesh, uint link, uint flags, uint* previous);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_mesh_link_count(NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_nearest_point(
            NavstarMesh mesh, float* point, float maxDistance, QueryFilter* filter,
            float* outPoint, out uint polygon, out float distance);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_raycast(
            NavstarMesh mesh, float* start, float* end, QueryFilter* filter, out MeshRaycastHit hit);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_nearest_point_for_agent(
            NavstarMesh mesh, float* point, float maxDistance, QueryFilter* filter, float agentRadius,
            float* outPoint, out uint polygon, out float distance);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_raycast_for_agent(
            NavstarMesh mesh, float* start, float* end, QueryFilter* filter, float agentRadius, out MeshRaycastHit hit);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_move_along_surface(
            NavstarMesh mesh, uint startPolygon, float* start, float* target, QueryFilter* filter,
            out SurfaceMove move, uint* visited, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_move_along_surface_for_agent(
            NavstarMesh mesh, uint startPolygon, float* start, float* target, QueryFilter* filter, float agentRadius,
            out SurfaceMove move, uint* visited, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_distance_to_wall_for_agent(
            NavstarQuery query, float* point, float radius, QueryFilter* filter, float agentRadius,
            out WallDistance wall);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_random_point_for_agent(
            NavstarMesh mesh, QueryFilter* filter, float agentRadius, ulong* rngState, float* point, uint* polygon);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_random_point_around_for_agent(
            NavstarQuery query, float* center, float radius, QueryFilter* filter, float agentRadius, ulong* rngState,
            float* point, uint* polygon);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_create(
            NavstarMesh mesh, uint* polygons, uint count, float* start, float* target, out NavstarCorridor corridor);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void navstar_corridor_free(IntPtr corridor);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_move_position(
            NavstarCorridor corridor, float* position, QueryFilter* filter, uint* onCorridor);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_set_agent_radius(NavstarCorridor corridor, float agentRadius);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_move_target(
            NavstarCorridor corridor, float* target, QueryFilter* filter, uint* onCorridor);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_position(NavstarCorridor corridor, float* position, float* target);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_polygons(
            NavstarCorridor corridor, uint* polygons, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_corners(
            NavstarCorridor corridor, QueryFilter* filter, uint splitAtAreaChanges, float* points, uint* flags,
            uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_is_valid(
            NavstarCorridor corridor, uint lookAhead, QueryFilter* filter, out uint valid);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_repair(
            NavstarCorridor corridor, NavstarQuery query, QueryFilter* filter, out uint outcome, out uint kept);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_corridor_optimize(
            NavstarCorridor corridor, float* next, QueryFilter* filter, out uint changed);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_distance_to_wall(
            NavstarQuery query, float* point, float radius, QueryFilter* filter, out WallDistance wall);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_random_point(
            NavstarMesh mesh, QueryFilter* filter, ulong* rngState, float* point, uint* polygon);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_random_point_around(
            NavstarQuery query, float* center, float radius, QueryFilter* filter, ulong* rngState, float* point,
            uint* polygon);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_interpolate(
            NavstarMesh mesh, float* point, float* values, uint valueCount, uint channels,
            QueryFilter* filter, float* outValues, out uint polygon);

        // Time-sliced path searches (NavstarSliced.cs).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_begin_path(
            NavstarQuery query, float* start, float* goal, PathOptions* options, out uint state);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_advance_path(
            NavstarQuery query, uint maxExpansions, out SliceProgress progress);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_finish_path(
            NavstarQuery query, float* outPoints, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_cancel_path(NavstarQuery query, uint* cancelled);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_path_info(NavstarQuery query, out PathInfo info);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_path_details(
            NavstarQuery query, CornerDetail* outDetails, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_path_arcs(
            NavstarQuery query, PathArc* outArcs, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_path_corridor(
            NavstarQuery query, uint* outPolygons, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_find_nearest_target(
            NavstarQuery query, float* start, float* goals, uint goalCount, PathOptions* options,
            float* outPoints, uint capacity, out uint count, out uint goal);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_query_reachable_polygons(
            NavstarQuery query, float* start, float maxCost, PathOptions* options,
            ReachedPolygon* outPolygons, uint capacity, out uint count);

        // Worlds of tiles and polygon references (NavstarWorld.cs).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern WorldOptions navstar_world_options_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_create(WorldOptions* options, out NavstarWorld world);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern void navstar_world_free(IntPtr world);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_add_tile(NavstarWorld world, NavstarMesh tile, out TileRef added);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_remove_tile(NavstarWorld world, TileRef tile);

        // Obstacles of a world (NavstarObstacles.cs).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern NativeObstacle navstar_obstacle_default();

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_add_obstacle(NavstarWorld world, IntPtr obstacle, out ObstacleRef added);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_move_obstacle(NavstarWorld world, ObstacleRef obstacle, IntPtr shape);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_remove_obstacle(NavstarWorld world, ObstacleRef obstacle);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_world_obstacle_count(NavstarWorld world);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_replace_tile(
            NavstarWorld world, TileRef tile, NavstarMesh mesh, out TileRef replaced);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_snapshot(NavstarWorld world, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_world_tile_count(NavstarWorld world);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_tiles(NavstarWorld world, TileRef* outTiles, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_add_mesh_tiles(NavstarWorld world, NavstarMesh mesh, float tileSize, TileRef* outTiles, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_save(NavstarWorld world, byte* buffer, uint capacity, out uint size);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_load_bytes(byte* bytes, uint size, out NavstarWorld world);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_world_load(byte* path, out NavstarWorld world);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_ids(NavstarMesh mesh, uint* outIds, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_ref(NavstarMesh mesh, uint polygon, out ulong polygonRef);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_resolve_polygon_ref(NavstarMesh mesh, ulong polygonRef, out uint polygon);

        // Loaders of every format and the mesh read-back (NavstarMeshData.cs).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_load(byte* path, uint format, MeshOptions* options, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_load_bytes(
            byte* bytes, uint size, uint format, MeshOptions* options, out NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_vertices(NavstarMesh mesh, float* outVertices, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_sizes(NavstarMesh mesh, uint* outSizes, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_corners(NavstarMesh mesh, uint* outCorners, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_neighbours(
            NavstarMesh mesh, uint* outNeighbours, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_areas(NavstarMesh mesh, byte* outAreas, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_flags(NavstarMesh mesh, uint* outFlags, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_islands(NavstarMesh mesh, uint* outIslands, uint capacity, out uint count);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern uint navstar_mesh_island_count(NavstarMesh mesh);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_bounds(NavstarMesh mesh, float* outMin, float* outMax);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl)]
        internal static extern Status navstar_mesh_polygon_points(
            NavstarMesh mesh, uint polygon, float* outPoints, uint capacity, out uint count);

        // A file path as the loaders take it: NUL-terminated UTF-8. Throws for null and for
        // a path with a NUL character (the library would read a shorter path).
        internal static byte[] Utf8Path(string path)
        {
            if (path == null)
            {
                throw new ArgumentNullException("path");
            }
            if (path.IndexOf('\0') >= 0)
            {
                throw new ArgumentException("the path contains a NUL character", "path");
            }
            return System.Text.Encoding.UTF8.GetBytes(path + "\0");
        }

        // A NUL-terminated UTF-8 string owned by the library, copied.
        internal static string Utf8(IntPtr text)
        {
            if (text == IntPtr.Zero)
            {
                return string.Empty;
            }
            byte* bytes = (byte*)text;
            int length = 0;
            while (bytes[length] != 0)
            {
                length++;
            }
            return length == 0 ? string.Empty : System.Text.Encoding.UTF8.GetString(bytes, length);
        }
    }
}
