// SPDX-License-Identifier: MIT
//
// The mesh's own queries for a disc-shaped agent (several agent sizes on one mesh): the
// nearest point where the disc fits and a raycast of the disc's centre; for agents that
// move, moving along the surface, the distance to the wall and random points where the
// disc fits. Paths, nearest targets and reachable polygons take the radius in
// PathOptions.AgentRadius instead, and GetPathArcs gives a path's turns round wall corners.

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
    public sealed partial class NavstarMesh
    {
        /// <summary>
        /// As NearestPoint, for an agent of radius <paramref name="agentRadius"/> (world
        /// units, finite, &gt;= 0; its whole radius, MeshOptions.AgentRadius included): the
        /// nearest point where the disc fits, at least the radius from every wall (edges
        /// without a neighbour, and edges into polygons the filter refuses). At or below the
        /// mesh's baked radius this is NearestPoint. The first call for a radius builds the
        /// mesh's eroded copy for it. Status.ErrorNotOnMesh when no such point lies within
        /// <paramref name="maxDistance"/>; Status.ErrorInvalidArgument for a NaN, infinite or
        /// negative radius, or one that no point of the mesh fits (outputs zero, polygon -1).
        /// </summary>
        public unsafe Status NearestPointForAgent(
            Vector3 point, float maxDistance, float agentRadius, out Vector3 nearest, out int polygon,
            out float distance, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            Vector3 found = new Vector3();
            uint polygonId = 0;
            float far = 0;
            Status status = NativeMethods.navstar_mesh_nearest_point_for_agent(
                this, (float*)&point, maxDistance, filter.HasValue ? &filterValue : null, agentRadius,
                (float*)&found, out polygonId, out far);
            bool ok = status >= 0;
            nearest = ok ? found : new Vector3();
            polygon = ok ? (int)polygonId : -1;
            distance = ok ? far : 0;
            return status;
        }

        /// <summary>
        /// As Raycast, for the centre of a disc of radius <paramref name="agentRadius"/>: the
        /// start moves to the nearest point where the disc fits, and the walk stops where the
        /// disc would touch a wall (hit.Normal is the eroded boundary's: the wall's along a
        /// straight wall). Returns true when stopped before <paramref name="end"/>; throws
        /// NavstarException on errors (TryRaycastForAgent returns them instead).
        /// </summary>
        public bool RaycastForAgent(
            Vector3 start, Vector3 end, float agentRadius, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            NavstarException.ThrowIfError(TryRaycastForAgent(start, end, agentRadius, out hit, filter));
            return hit.Hit;
        }

        /// <summary>RaycastForAgent with its status: Status.Ok whether it hit or not (read hit.Hit).</summary>
        public unsafe Status TryRaycastForAgent(
            Vector3 start, Vector3 end, float agentRadius, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            return NativeMethods.navstar_mesh_raycast_for_agent(
                this, (float*)&start, (float*)&end, filter.HasValue ? &filterValue : null, agentRadius, out hit);
        }

        /// <summary>
        /// As MoveAlongSurface, for the centre of a disc of radius <paramref name="agentRadius"/>:
        /// the move slides along the walls moved in by the radius, so the disc never overlaps a
        /// wall; the start first moves to where the disc fits. move.Polygon and
        /// <paramref name="visited"/> name this mesh's polygons. Status.ErrorInvalidArgument for
        /// a NaN, infinite or negative radius, or one that no point of the mesh fits.
        /// </summary>
        public unsafe Status MoveAlongSurfaceForAgent(
            int startPolygon, Vector3 start, Vector3 target, float agentRadius, out SurfaceMove move, int[] visited,
            out int count, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint total;
            Status status;
            fixed (int* polygons = visited)
            {
                status = NativeMethods.navstar_mesh_move_along_surface_for_agent(
                    this, startPolygon < 0 ? uint.MaxValue : (uint)startPolygon, (float*)&start, (float*)&target,
                    filter.HasValue ? &filterValue : null, agentRadius, out move, (uint*)polygons,
                    visited == null ? 0u : (uint)visited.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            if (status == Status.BufferTooSmall && visited == null)
            {
                // Nothing was asked to be kept: the move itself is whole.
                status = Status.Ok;
            }
            return status;
        }

        /// <summary>
        /// As RandomPoint, for a disc of radius <paramref name="agentRadius"/>: a point where the
        /// disc fits (at least the radius from every wall), uniform by area over that region.
        /// The state is left as it was on an error.
        /// </summary>
        public unsafe Status RandomPointForAgent(
            float agentRadius, ref ulong rngState, out Vector3 point, out int polygon, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            Vector3 found = new Vector3();
            uint polygonId = 0;
            ulong state = rngState;
            Status status = NativeMethods.navstar_mesh_random_point_for_agent(
                this, filter.HasValue ? &filterValue : null, agentRadius, &state, (float*)&found, &polygonId);
            rngState = state;
            point = status >= 0 ? found : new Vector3();
            polygon = status >= 0 ? (int)polygonId : -1;
            return status;
        }
    }

    /// <summary>
    /// A turn of a query's last path round a convex wall corner (NavstarPathArc): paths
    /// with PathOptions.AgentRadius above the mesh's baked radius have one per wall corner
    /// they go round. The points FirstPoint..LastPoint lie on an octagon drawn round the
    /// circle of Radius about Centre, so the polyline keeps Radius from the corner; an
    /// agent that steers on curves may follow the circle instead.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PathArc
    {
        private uint firstPoint;
        private uint lastPoint;
        private Vector3 centre;
        private float radius;

        /// <summary>The index of the first path point placed round the wall corner.</summary>
        public int FirstPoint
        {
            get { return (int)firstPoint; }
        }

        /// <summary>The index of the last one (at least FirstPoint).</summary>
        public int LastPoint
        {
            get { return (int)lastPoint; }
        }

        /// <summary>The wall corner turned round, a vertex of the mesh (world coordinates).</summary>
        public Vector3 Centre
        {
            get { return centre; }
        }

        /// <summary>The distance kept from Centre: the agent radius less the mesh's baked radius.</summary>
        public float Radius
        {
            get { return radius; }
        }
    }

    public sealed partial class NavstarQuery
    {
        /// <summary>
        /// The turns of the last path round wall corners into <paramref name="buffer"/>, in
        /// path order (none without an agent radius above the baked one); count and
        /// Status.BufferTooSmall as for GetPathDetails.
        /// </summary>
        public unsafe Status GetPathArcs(PathArc[] buffer, out int count)
        {
            uint total;
            Status status;
            fixed (PathArc* arcs = buffer)
            {
                status = NativeMethods.navstar_query_path_arcs(
                    this, arcs, buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>The turns of the last path as a new array; throws NavstarException on errors.</summary>
        public PathArc[] GetPathArcs()
        {
            int count;
            NavstarException.ThrowIfError(GetPathArcs(null, out count));
            PathArc[] arcs = new PathArc[count];
            NavstarException.ThrowIfError(GetPathArcs(arcs, out count));
            return arcs;
        }

        /// <summary>
        /// As DistanceToWall, for a disc of radius <paramref name="agentRadius"/>: the distance
        /// from its centre (moved to where the disc fits) to the walls moved in by the radius,
        /// i.e. the wall distance less the radius; wall.Point lies on that eroded boundary.
        /// </summary>
        public unsafe Status DistanceToWallForAgent(
            Vector3 point, float radius, float agentRadius, out WallDistance wall, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            return NativeMethods.navstar_query_distance_to_wall_for_agent(
                this, (float*)&point, radius, filter.HasValue ? &filterValue : null, agentRadius, out wall);
        }

        /// <summary>
        /// As RandomPointAround, for a disc of radius <paramref name="agentRadius"/>: a point
        /// where the disc fits that it can walk to from <paramref name="center"/>.
        /// </summary>
        public unsafe Status RandomPointAroundForAgent(
            Vector3 center, float radius, float agentRadius, ref ulong rngState, out Vector3 point, out int polygon,
            QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            Vector3 found = new Vector3();
            uint polygonId = 0;
            ulong state = rngState;
            Status status = NativeMethods.navstar_query_random_point_around_for_agent(
                this, (float*)&center, radius, filter.HasValue ? &filterValue : null, agentRadius, &state,
                (float*)&found, &polygonId);
            rngState = state;
            point = status >= 0 ? found : new Vector3();
            polygon = status >= 0 ? (int)polygonId : -1;
            return status;
        }
    }
}
