// SPDX-License-Identifier: MIT
//
// Searches over many goals at once: the nearest of several targets by walking cost (one
// search), and the polygons reachable within a cost (a bounded flood). The struct is laid
// out exactly as in navstar.h.

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
#pragma warning disable 0649 // fields written by the native functions
    /// <summary>A polygon listed by NavstarQuery.ReachablePolygons (NavstarReachedPolygon).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ReachedPolygon
    {
        /// <summary>The Parent value of the start polygon (NAVSTAR_NO_POLYGON).</summary>
        public const uint NoPolygon = uint.MaxValue;

        private uint polygon;
        private uint parent;
        private float cost;

        /// <summary>The polygon.</summary>
        public int Polygon
        {
            get { return (int)polygon; }
        }

        /// <summary>The polygon it is entered from, or NoPolygon for the start polygon.</summary>
        public uint Parent
        {
            get { return parent; }
        }

        /// <summary>The cost of the cheapest way into it found.</summary>
        public float Cost
        {
            get { return cost; }
        }
    }
#pragma warning restore 0649

    public sealed partial class NavstarQuery
    {
        /// <summary>
        /// Of several <paramref name="goals"/>, finds the one cheapest to walk to, with one
        /// search, and its path into <paramref name="buffer"/> (as FindPath). <paramref name="goal"/>
        /// is its index; Status.ErrorNoPath when no goal is reachable.
        /// </summary>
        public unsafe Status FindNearestTarget(
            Vector3 start, Vector3[] goals, Vector3[] buffer, out int count, out int goal,
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
            fixed (Vector3* targets = goals)
            fixed (Vector3* points = buffer)
            {
                return NearestTargetCore(
                    (float*)&start, (float*)targets, goals.Length, &optionValue, (float*)points,
                    buffer == null ? 0 : buffer.Length, out count, out goal);
            }
        }

        // navstar_find_nearest_target over pinned points: goals holds goalCount points,
        // points room for capacity.
        internal unsafe Status NearestTargetCore(
            float* start, float* goals, int goalCount, PathOptions* options, float* points, int capacity,
            out int count, out int goal)
        {
            uint total;
            uint chosen;
            Status status = NativeMethods.navstar_find_nearest_target(
                this, start, goals, (uint)goalCount, options, capacity == 0 ? null : points, (uint)capacity,
                out total, out chosen);
            count = (int)Math.Min(total, int.MaxValue);
            goal = status >= 0 ? (int)chosen : -1;
            return status;
        }

        /// <summary>
        /// The polygons reachable from <paramref name="start"/> at a cost of at most
        /// <paramref name="maxCost"/> (a bounded Dijkstra flood), cheapest first, into
        /// <paramref name="buffer"/>; Status.BufferTooSmall when they do not fit (the cheapest
        /// buffer.Length are written, count says how many there are).
        /// </summary>
        public unsafe Status ReachablePolygons(
            Vector3 start, float maxCost, ReachedPolygon[] buffer, out int count,
            PathOptions? options = null, QueryFilter? filter = null)
        {
            PathOptions optionValue = options.HasValue ? options.Value : PathOptions.Default;
            QueryFilter filterValue = filter.GetValueOrDefault();
            if (filter.HasValue)
            {
                optionValue.FilterPointer = (IntPtr)(&filterValue);
            }
            uint total;
            Status status;
            fixed (ReachedPolygon* reached = buffer)
            {
                status = NativeMethods.navstar_query_reachable_polygons(
                    this, (float*)&start, maxCost, &optionValue, reached,
                    buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }
    }
}
