// SPDX-License-Identifier: MIT
//
// The mesh's own queries for a disc-shaped agent (several agent sizes on one mesh): the
// nearest point where the disc fits and a raycast of the disc's centre. Paths, nearest
// targets and reachable polygons take the radius in PathOptions.AgentRadius instead.

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
    }
}
