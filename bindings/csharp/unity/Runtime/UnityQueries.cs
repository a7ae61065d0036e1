// SPDX-License-Identifier: MIT
//
// The UnityEngine.Vector3 twin of every query that takes or returns points and is not in
// UnityExtensions.cs: the same name and arguments with UnityEngine.Vector3 (and arrays of
// it) where the Navstar method has Navstar.Vector3. Arrays go to the library as they are
// (same three-float layout, no copy); single points are converted on the stack. Each twin
// behaves exactly as the method it mirrors (see that method's documentation).

#if UNITY_5_3_OR_NEWER
using System;
using UVector3 = UnityEngine.Vector3;

namespace Navstar
{
    public sealed partial class NavstarMesh
    {
        /// <summary>As TryCreateFromGrid(..., Navstar.Vector3 origin, ...).</summary>
        public static Status TryCreateFromGrid(
            byte[] cells, int width, int height, float cellSize, UVector3 origin, out NavstarMesh mesh)
        {
            return TryCreateFromGrid(cells, width, height, cellSize, (Vector3)origin, out mesh);
        }

        /// <summary>As TryCreateFromGrid(..., Navstar.Vector3 origin, MeshOptions, ...).</summary>
        public static Status TryCreateFromGrid(
            byte[] cells, int width, int height, float cellSize, UVector3 origin, MeshOptions options,
            out NavstarMesh mesh)
        {
            return TryCreateFromGrid(cells, width, height, cellSize, (Vector3)origin, options, out mesh);
        }

        /// <summary>As CreateFromGrid(..., Navstar.Vector3 origin).</summary>
        public static NavstarMesh CreateFromGrid(byte[] cells, int width, int height, float cellSize, UVector3 origin)
        {
            return CreateFromGrid(cells, width, height, cellSize, (Vector3)origin);
        }

        /// <summary>As TryCreate(Navstar.Vector3[], ..., areas, flags, links, ...), from UnityEngine.Vector3[] (no copy).</summary>
        public static unsafe Status TryCreate(
            UVector3[] vertices, int[] indices, int[] polygonSizes, byte[] areas, uint[] flags, OffMeshLink[] links,
            MeshOptions? options, out NavstarMesh mesh)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            fixed (UVector3* points = vertices)
            {
                return CreateWithData(
                    (float*)points, vertices.Length, indices, polygonSizes, areas, flags, links, options, out mesh);
            }
        }

        /// <summary>As Create(Navstar.Vector3[], ..., areas, flags, links, ...), from UnityEngine.Vector3[].</summary>
        public static NavstarMesh Create(
            UVector3[] vertices, int[] indices, int[] polygonSizes, byte[] areas, uint[] flags, OffMeshLink[] links,
            MeshOptions? options = null)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreate(vertices, indices, polygonSizes, areas, flags, links, options, out mesh));
            return mesh;
        }

        /// <summary>As NearestPoint(Navstar.Vector3, ...), with UnityEngine.Vector3 in and out.</summary>
        public Status NearestPoint(
            UVector3 point, float maxDistance, out UVector3 nearest, out int polygon, out float distance,
            QueryFilter? filter = null)
        {
            Vector3 found;
            Status status = NearestPoint((Vector3)point, maxDistance, out found, out polygon, out distance, filter);
            nearest = found;
            return status;
        }

        /// <summary>As Raycast(Navstar.Vector3, ...): true when the walk is stopped before <paramref name="end"/>.</summary>
        public bool Raycast(UVector3 start, UVector3 end, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            return Raycast((Vector3)start, (Vector3)end, out hit, filter);
        }

        /// <summary>As TryRaycast(Navstar.Vector3, ...).</summary>
        public Status TryRaycast(UVector3 start, UVector3 end, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            return TryRaycast((Vector3)start, (Vector3)end, out hit, filter);
        }

        /// <summary>As NearestPointForAgent(Navstar.Vector3, ...), with UnityEngine.Vector3 in and out.</summary>
        public Status NearestPointForAgent(
            UVector3 point, float maxDistance, float agentRadius, out UVector3 nearest, out int polygon,
            out float distance, QueryFilter? filter = null)
        {
            Vector3 found;
            Status status = NearestPointForAgent(
                (Vector3)point, maxDistance, agentRadius, out found, out polygon, out distance, filter);
            nearest = found;
            return status;
        }

        /// <summary>As RaycastForAgent(Navstar.Vector3, ...).</summary>
        public bool RaycastForAgent(
            UVector3 start, UVector3 end, float agentRadius, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            return RaycastForAgent((Vector3)start, (Vector3)end, agentRadius, out hit, filter);
        }

        /// <summary>As TryRaycastForAgent(Navstar.Vector3, ...).</summary>
        public Status TryRaycastForAgent(
            UVector3 start, UVector3 end, float agentRadius, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            return TryRaycastForAgent((Vector3)start, (Vector3)end, agentRadius, out hit, filter);
        }

        /// <summary>As Interpolate(Navstar.Vector3, ...).</summary>
        public Status Interpolate(
            UVector3 point, float[] values, int channels, float[] output, out int polygon, QueryFilter? filter = null)
        {
            return Interpolate((Vector3)point, values, channels, output, out polygon, filter);
        }

        /// <summary>As MoveAlongSurface(int, Navstar.Vector3, ...); move.Point converts to UnityEngine.Vector3.</summary>
        public Status MoveAlongSurface(
            int startPolygon, UVector3 start, UVector3 target, out SurfaceMove move, int[] visited, out int count,
            QueryFilter? filter = null)
        {
            return MoveAlongSurface(startPolygon, (Vector3)start, (Vector3)target, out move, visited, out count, filter);
        }

        /// <summary>As RandomPoint(ref ulong, out Navstar.Vector3, ...).</summary>
        public Status RandomPoint(ref ulong rngState, out UVector3 point, out int polygon, QueryFilter? filter = null)
        {
            Vector3 found;
            Status status = RandomPoint(ref rngState, out found, out polygon, filter);
            point = found;
            return status;
        }

        /// <summary>As MoveAlongSurfaceForAgent(int, Navstar.Vector3, ...).</summary>
        public Status MoveAlongSurfaceForAgent(
            int startPolygon, UVector3 start, UVector3 target, float agentRadius, out SurfaceMove move, int[] visited,
            out int count, QueryFilter? filter = null)
        {
            return MoveAlongSurfaceForAgent(
                startPolygon, (Vector3)start, (Vector3)target, agentRadius, out move, visited, out count, filter);
        }

        /// <summary>As RandomPointForAgent(float, ref ulong, out Navstar.Vector3, ...).</summary>
        public Status RandomPointForAgent(
            float agentRadius, ref ulong rngState, out UVector3 point, out int polygon, QueryFilter? filter = null)
        {
            Vector3 found;
            Status status = RandomPointForAgent(agentRadius, ref rngState, out found, out polygon, filter);
            point = found;
            return status;
        }

        /// <summary>As GetBounds(out Navstar.Vector3, out Navstar.Vector3).</summary>
        public void GetBounds(out UVector3 min, out UVector3 max)
        {
            Vector3 low, high;
            GetBounds(out low, out high);
            min = low;
            max = high;
        }
    }

    public sealed partial class NavstarQuery
    {
        /// <summary>As the filtered FindPath(Navstar.Vector3, ..., Navstar.Vector3[] buffer, ...) (no allocation, no copy).</summary>
        public unsafe Status FindPath(
            UVector3 start, UVector3 goal, PathOptions options, QueryFilter filter, UVector3[] buffer, out int count)
        {
            options.FilterPointer = (IntPtr)(&filter);
            fixed (UVector3* points = buffer)
            {
                return Find((float*)&start, (float*)&goal, &options, (float*)points,
                            buffer == null ? 0 : buffer.Length, out count);
            }
        }

        /// <summary>As the filtered FindPath(Navstar.Vector3, ..., out bool), as a new UnityEngine.Vector3[].</summary>
        public unsafe UVector3[] FindPath(UVector3 start, UVector3 goal, PathOptions options, QueryFilter filter, out bool partial)
        {
            options.FilterPointer = (IntPtr)(&filter);
            int count;
            Vector3[] points = FindIntoScratch((float*)&start, (float*)&goal, options, out count, out partial);
            UVector3[] result = new UVector3[count];
            for (int i = 0; i < count; i++)
            {
                result[i] = points[i];
            }
            return result;
        }

        /// <summary>As BeginPath(Navstar.Vector3, Navstar.Vector3, out bool, PathOptions?).</summary>
        public Status BeginPath(UVector3 start, UVector3 goal, out bool done, PathOptions? options = null)
        {
            return BeginPath((Vector3)start, (Vector3)goal, out done, options);
        }

        /// <summary>As FinishPath(Navstar.Vector3[], out int), into a UnityEngine.Vector3[] (no copy).</summary>
        public unsafe Status FinishPath(UVector3[] buffer, out int count)
        {
            uint total;
            Status status;
            fixed (UVector3* points = buffer)
            {
                status = NativeMethods.navstar_query_finish_path(
                    this, (float*)points, buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>As FindNearestTarget(Navstar.Vector3, Navstar.Vector3[], Navstar.Vector3[], ...) (no copy).</summary>
        public unsafe Status FindNearestTarget(
            UVector3 start, UVector3[] goals, UVector3[] buffer, out int count, out int goal,
            PathOptions? options = null, QueryFilter? filter = null)
        {
            if (goals == null)
            {
                throw new ArgumentNullException("goals");
            }
            PathOptions optionValue = options.HasValue ? options.Value : PathOptions.Default;
            QueryFilter filterValue = filter.GetValueOrDefault();
            if (filter.HasValue)
            {
                optionValue.FilterPointer = (IntPtr)(&filterValue);
            }
            fixed (UVector3* targets = goals)
            fixed (UVector3* points = buffer)
            {
                return NearestTargetCore(
                    (float*)&start, (float*)targets, goals.Length, &optionValue, (float*)points,
                    buffer == null ? 0 : buffer.Length, out count, out goal);
            }
        }

        /// <summary>As ReachablePolygons(Navstar.Vector3, ...).</summary>
        public Status ReachablePolygons(
            UVector3 start, float maxCost, ReachedPolygon[] buffer, out int count,
            PathOptions? options = null, QueryFilter? filter = null)
        {
            return ReachablePolygons((Vector3)start, maxCost, buffer, out count, options, filter);
        }

        /// <summary>As DistanceToWall(Navstar.Vector3, ...); wall.Point and wall.Normal convert to UnityEngine.Vector3.</summary>
        public Status DistanceToWall(UVector3 point, float radius, out WallDistance wall, QueryFilter? filter = null)
        {
            return DistanceToWall((Vector3)point, radius, out wall, filter);
        }

        /// <summary>As RandomPointAround(Navstar.Vector3, ...).</summary>
        public Status RandomPointAround(
            UVector3 center, float radius, ref ulong rngState, out UVector3 point, out int polygon,
            QueryFilter? filter = null)
        {
            Vector3 found;
            Status status = RandomPointAround((Vector3)center, radius, ref rngState, out found, out polygon, filter);
            point = found;
            return status;
        }

        /// <summary>As DistanceToWallForAgent(Navstar.Vector3, ...).</summary>
        public Status DistanceToWallForAgent(
            UVector3 point, float radius, float agentRadius, out WallDistance wall, QueryFilter? filter = null)
        {
            return DistanceToWallForAgent((Vector3)point, radius, agentRadius, out wall, filter);
        }

        /// <summary>As RandomPointAroundForAgent(Navstar.Vector3, ...).</summary>
        public Status RandomPointAroundForAgent(
            UVector3 center, float radius, float agentRadius, ref ulong rngState, out UVector3 point, out int polygon,
            QueryFilter? filter = null)
        {
            Vector3 found;
            Status status = RandomPointAroundForAgent(
                (Vector3)center, radius, agentRadius, ref rngState, out found, out polygon, filter);
            point = found;
            return status;
        }
    }
}
#endif
