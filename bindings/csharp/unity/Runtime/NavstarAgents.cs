// SPDX-License-Identifier: MIT
//
// Queries for agents that move: moving along the surface (sliding on walls), the
// distance to the nearest wall, and random points (over the mesh, and around a point)
// from a seed the caller keeps. The structs are laid out exactly as in navstar.h.

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
#pragma warning disable 0649 // fields written by the native functions
    /// <summary>The answer of NavstarMesh.MoveAlongSurface (NavstarSurfaceMove).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SurfaceMove
    {
        /// <summary>The most straight legs of one move (NAVSTAR_MAX_SURFACE_LEGS).</summary>
        public const int MaxLegs = 4;

        private Vector3 point;
        private uint polygon;
        private uint walls;

        /// <summary>Where the move ended, with the height of its polygon there.</summary>
        public Vector3 Point
        {
            get { return point; }
        }

        /// <summary>The polygon the move ended in: the start polygon of the next move.</summary>
        public int Polygon
        {
            get { return (int)polygon; }
        }

        /// <summary>How many times the move met a wall (0: straight to the target; at most MaxLegs).</summary>
        public int Walls
        {
            get { return (int)walls; }
        }
    }

    /// <summary>The answer of NavstarQuery.DistanceToWall (NavstarWallDistance).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct WallDistance
    {
        private uint found;
        private float distance;
        private Vector3 point;
        private Vector3 normal;
        private uint polygon;

        /// <summary>True when a wall lies within the radius.</summary>
        public bool Found
        {
            get { return found != 0; }
        }

        /// <summary>The ground-plane distance to the wall (float.PositiveInfinity when none was found).</summary>
        public float Distance
        {
            get { return distance; }
        }

        /// <summary>The nearest point of the wall, with the edge's height there.</summary>
        public Vector3 Point
        {
            get { return point; }
        }

        /// <summary>The wall edge's unit normal in the ground plane, pointing into the walkable side.</summary>
        public Vector3 Normal
        {
            get { return normal; }
        }

        /// <summary>The polygon whose edge the wall is (-1 when none was found).</summary>
        public int Polygon
        {
            get { return found != 0 ? (int)polygon : -1; }
        }
    }
#pragma warning restore 0649

    public sealed partial class NavstarMesh
    {
        /// <summary>
        /// Moves from <paramref name="start"/> towards <paramref name="target"/> along the
        /// surface, sliding along the walls met (edges without a neighbour and edges into
        /// polygons the filter refuses), never farther than the target. Pass the Polygon of
        /// the last move as <paramref name="startPolygon"/>, or -1 to snap the start to the
        /// mesh. The polygons walked through go into <paramref name="visited"/> (null: none
        /// kept); Status.BufferTooSmall when they do not fit (the first visited.Length are
        /// written, count says how many there are; the move is still answered). Allocates
        /// nothing: cheap enough for every agent every frame.
        /// </summary>
        public unsafe Status MoveAlongSurface(
            int startPolygon, Vector3 start, Vector3 target, out SurfaceMove move, int[] visited, out int count,
            QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint total;
            Status status;
            fixed (int* polygons = visited)
            {
                status = NativeMethods.navstar_mesh_move_along_surface(
                    this, startPolygon < 0 ? uint.MaxValue : (uint)startPolygon, (float*)&start, (float*)&target,
                    filter.HasValue ? &filterValue : null, out move, (uint*)polygons,
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
        /// A random point of the polygons the filter admits, uniform by ground area.
        /// <paramref name="rngState"/> is a SplitMix64 state: set it to a seed once and pass it
        /// back each call (four steps per point); the same seed gives the same points.
        /// Status.ErrorNotOnMesh when the filter admits no polygon with an area. O(polygons).
        /// </summary>
        public unsafe Status RandomPoint(ref ulong rngState, out Vector3 point, out int polygon, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            Vector3 found = new Vector3();
            uint polygonId = 0;
            ulong state = rngState;
            Status status = NativeMethods.navstar_mesh_random_point(
                this, filter.HasValue ? &filterValue : null, &state, (float*)&found, &polygonId);
            rngState = state;
            point = status >= 0 ? found : new Vector3();
            polygon = status >= 0 ? (int)polygonId : -1;
            return status;
        }
    }

    public sealed partial class NavstarQuery
    {
        /// <summary>
        /// The nearest wall within <paramref name="radius"/> of <paramref name="point"/>
        /// (moved to the mesh first): wall.Found is false when there is none (still Status.Ok).
        /// Searches the polygons around the point only.
        /// </summary>
        public unsafe Status DistanceToWall(Vector3 point, float radius, out WallDistance wall, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            return NativeMethods.navstar_query_distance_to_wall(
                this, (float*)&point, radius, filter.HasValue ? &filterValue : null, out wall);
        }

        /// <summary>
        /// A random point of the polygons around <paramref name="center"/> (Detour's
        /// findRandomPointAroundCircle): the polygons reached from the center's polygon
        /// across portals within <paramref name="radius"/>, drawn by area; the point may lie
        /// outside the circle. <paramref name="rngState"/> as for NavstarMesh.RandomPoint.
        /// </summary>
        public unsafe Status RandomPointAround(
            Vector3 center, float radius, ref ulong rngState, out Vector3 point, out int polygon,
            QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            Vector3 found = new Vector3();
            uint polygonId = 0;
            ulong state = rngState;
            Status status = NativeMethods.navstar_query_random_point_around(
                this, (float*)&center, radius, filter.HasValue ? &filterValue : null, &state, (float*)&found,
                &polygonId);
            rngState = state;
            point = status >= 0 ? found : new Vector3();
            polygon = status >= 0 ? (int)polygonId : -1;
            return status;
        }
    }
}
