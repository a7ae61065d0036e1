// SPDX-License-Identifier: MIT

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>
    /// Path-finding state over one mesh (owns a native NavstarQuery*). Use each query from
    /// one thread at a time: make one per thread (or per job worker). It keeps its own
    /// reference to the native mesh, so the NavstarMesh may be disposed first.
    /// </summary>
    /// <remarks>
    /// <c>FindPath(start, goal, buffer, out count)</c> allocates nothing: the path goes
    /// into the caller's array and the <see cref="Status"/> is returned. The overloads
    /// that return an array allocate it and throw <see cref="NavstarException"/> on errors.
    /// </remarks>
    public sealed partial class NavstarQuery : SafeHandle
    {
        [ThreadStatic]
        private static Vector3[] scratch;

        // Used by the P/Invoke marshaller for `out NavstarQuery`.
        [Preserve]
        private NavstarQuery()
            : base(IntPtr.Zero, true)
        {
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            NativeMethods.navstar_query_free(handle);
            return true;
        }

        /// <summary>Makes a query over <paramref name="mesh"/>; null on an error status.</summary>
        public static Status TryCreate(NavstarMesh mesh, out NavstarQuery query)
        {
            return TryCreate(mesh, (QueryOptions?)null, out query);
        }

        /// <summary>
        /// Makes a query over <paramref name="mesh"/> with options (start from
        /// QueryOptions.Default), for example a node limit; null on an error status.
        /// </summary>
        public static Status TryCreate(NavstarMesh mesh, QueryOptions options, out NavstarQuery query)
        {
            return TryCreate(mesh, (QueryOptions?)options, out query);
        }

        /// <summary>Makes a query with options, or throws NavstarException.</summary>
        public static NavstarQuery Create(NavstarMesh mesh, QueryOptions options)
        {
            NavstarQuery query;
            NavstarException.ThrowIfError(TryCreate(mesh, options, out query));
            return query;
        }

        /// <summary>
        /// The bytes of search memory the query holds now: it grows with the largest
        /// searches made, up to the node limit, not with the size of the mesh.
        /// </summary>
        public long ScratchBytes
        {
            get { return (long)NativeMethods.navstar_query_scratch_bytes(this); }
        }

        /// <summary>
        /// The search nodes the last query expanded (a way into a polygon in the default
        /// mode, an edge interval in the exact mode), for budgets and profiling; 0 before
        /// the first query.
        /// </summary>
        public long NodesExpanded
        {
            get { return (long)NativeMethods.navstar_query_nodes_expanded(this); }
        }

        /// <summary>
        /// Whether this query's path searches use the mesh's landmark table (geodesic
        /// distances from a few landmark points that sharpen the estimates of both modes):
        /// Landmarks.BySize (the default: on meshes of 500 polygons or more), On or Off.
        /// The exact mode's answers are the same either way.
        /// </summary>
        public Status SetLandmarks(Landmarks mode)
        {
            return NativeMethods.navstar_query_set_landmarks(this, (uint)mode);
        }

        /// <summary>
        /// Whether this query answers exact-mode paths (PathMode.Optimal, and PathMode.Auto
        /// where it runs the exact mode) from the mesh's fast-lane index (see
        /// NavstarMesh.PrepareFastLane); on by default. Where the index answers, no search
        /// runs (NodesExpanded is 0); the lengths are the same either way.
        /// </summary>
        public Status SetFastLane(bool on)
        {
            return NativeMethods.navstar_query_set_fast_lane(this, on ? 1u : 0u);
        }

        // The one place that calls navstar_query_create_ex.
        private static unsafe Status TryCreate(NavstarMesh mesh, QueryOptions? options, out NavstarQuery query)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            QueryOptions optionValue = options.GetValueOrDefault();
            Status status = NativeMethods.navstar_query_create_ex(
                mesh, options.HasValue ? &optionValue : null, out query);
            if (status < 0 || (query != null && query.IsInvalid))
            {
                if (query != null)
                {
                    query.Dispose();
                }
                query = null;
            }
            return status;
        }

        /// <summary>Makes a query over <paramref name="mesh"/>, or throws NavstarException.</summary>
        public static NavstarQuery Create(NavstarMesh mesh)
        {
            NavstarQuery query;
            NavstarException.ThrowIfError(TryCreate(mesh, (QueryOptions?)null, out query));
            return query;
        }

        /// <summary>
        /// Finds a path into <paramref name="buffer"/> without allocating. The first point
        /// is the (snapped) start, the last the (snapped) goal, or for Status.PartialPath
        /// the reachable point closest to it. <paramref name="count"/> is the number of
        /// points of the whole path: when it exceeds buffer.Length the first buffer.Length
        /// points are written and the status is Status.BufferTooSmall. A null or empty
        /// buffer asks for the count alone. Errors (status &lt; 0) leave count 0; read
        /// NavstarLibrary.LastErrorMessage for the reason.
        /// </summary>
        public unsafe Status FindPath(Vector3 start, Vector3 goal, Vector3[] buffer, out int count)
        {
            fixed (Vector3* points = buffer)
            {
                return Find((float*)&start, (float*)&goal, null, (float*)points, buffer == null ? 0 : buffer.Length,
                            out count);
            }
        }

        /// <summary>As above, with options (start from PathOptions.Default).</summary>
        public unsafe Status FindPath(Vector3 start, Vector3 goal, PathOptions options, Vector3[] buffer, out int count)
        {
            fixed (Vector3* points = buffer)
            {
                return Find((float*)&start, (float*)&goal, &options, (float*)points,
                            buffer == null ? 0 : buffer.Length, out count);
            }
        }

        /// <summary>The path as a new array (partial paths included); throws NavstarException on errors.</summary>
        public Vector3[] FindPath(Vector3 start, Vector3 goal)
        {
            bool partial;
            return FindPath(start, goal, null, out partial);
        }

        /// <summary>The path as a new array, with options; throws NavstarException on errors.</summary>
        public Vector3[] FindPath(Vector3 start, Vector3 goal, PathOptions options)
        {
            bool partial;
            return FindPath(start, goal, (PathOptions?)options, out partial);
        }

        /// <summary>
        /// The path as a new array; <paramref name="partial"/> tells whether the goal was
        /// unreachable (the path then ends at the reachable point closest to it), or the
        /// search stopped at the query's node limit.
        /// </summary>
        public Vector3[] FindPath(Vector3 start, Vector3 goal, PathOptions options, out bool partial)
        {
            return FindPath(start, goal, (PathOptions?)options, out partial);
        }

        internal unsafe Vector3[] FindPath(Vector3 start, Vector3 goal, PathOptions? options, out bool partial)
        {
            int count;
            Vector3[] points = FindIntoScratch((float*)&start, (float*)&goal, options, out count, out partial);
            Vector3[] result = new Vector3[count];
            Array.Copy(points, result, count);
            return result;
        }

        // Runs the query into a per-thread scratch array (grown when a path does not fit)
        // and throws on errors. Returns the scratch array; its first `count` points are the path.
        internal unsafe Vector3[] FindIntoScratch(
            float* start, float* goal, PathOptions? options, out int count, out bool partial)
        {
            PathOptions optionValue = options.GetValueOrDefault();
            PathOptions* optionPointer = options.HasValue ? &optionValue : null;
            Vector3[] points = scratch ?? (scratch = new Vector3[64]);
            Status status;
            while (true)
            {
                fixed (Vector3* buffer = points)
                {
                    status = Find(start, goal, optionPointer, (float*)buffer, points.Length, out count);
                }
                if (status != Status.BufferTooSmall || count <= points.Length)
                {
                    break;
                }
                points = scratch = new Vector3[count];
            }
            NavstarException.ThrowIfError(status);
            partial = status == Status.PartialPath || status == Status.PartialNodeLimit;
            return points;
        }

        // The one place that calls navstar_find_path.
        internal unsafe Status Find(
            float* start, float* goal, PathOptions* options, float* points, int capacity, out int count)
        {
            uint total;
            Status status = NativeMethods.navstar_find_path(
                this, start, goal, options, capacity == 0 ? null : points, (uint)capacity, out total);
            count = total > int.MaxValue ? int.MaxValue : (int)total;
            return status;
        }
    }

    /// <summary>Whether a query's searches use the mesh's landmark table (NAVSTAR_LANDMARKS_*).</summary>
    public enum Landmarks : uint
    {
        /// <summary>On meshes of 500 polygons or more (the default).</summary>
        BySize = 0,
        /// <summary>Always, where the mesh has a table.</summary>
        On = 1,
        /// <summary>Never: straight-line estimates alone.</summary>
        Off = 2,
    }
}
