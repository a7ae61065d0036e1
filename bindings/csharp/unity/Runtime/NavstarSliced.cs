// SPDX-License-Identifier: MIT
//
// Time-sliced path searches: begin a search, advance it by at most a number of node
// expansions per call (a frame's budget), finish it (the same answer as FindPath, or
// before the end the best partial path), or cancel it. The struct is laid out exactly as
// in navstar.h.

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
#pragma warning disable 0649 // fields written by the native functions
    /// <summary>What one NavstarQuery.AdvancePath call did (NavstarSliceProgress).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SliceProgress
    {
        private uint state;
        private uint expansions;
        private uint flagsChanged;

        /// <summary>True once the answer is known: FinishPath returns it.</summary>
        public bool Done
        {
            get { return state == 1; }
        }

        /// <summary>The node expansions this call made (at most the number asked for).</summary>
        public int Expansions
        {
            get { return (int)expansions; }
        }

        /// <summary>
        /// True when the mesh's polygon flags changed since BeginPath (the search reads
        /// flags as it goes; begin again to search under the new flags throughout).
        /// </summary>
        public bool FlagsChanged
        {
            get { return flagsChanged != 0; }
        }
    }
#pragma warning restore 0649

    public sealed partial class NavstarQuery
    {
        /// <summary>
        /// Begins a time-sliced path search (cancelling one in progress); arguments as for
        /// FindPath. <paramref name="done"/> is true when the answer is known already (no
        /// search needed, or answered whole: an end on a pinched vertex; both path modes are
        /// sliced, with an agent radius too). Any other search on this query before
        /// FinishPath interrupts it.
        /// </summary>
        public unsafe Status BeginPath(Vector3 start, Vector3 goal, out bool done, PathOptions? options = null)
        {
            PathOptions optionsValue = options.GetValueOrDefault();
            uint state;
            Status status = NativeMethods.navstar_query_begin_path(
                this, (float*)&start, (float*)&goal, options.HasValue ? &optionsValue : null, out state);
            done = status >= 0 && state == 1;
            return status;
        }

        /// <summary>
        /// Goes on with the search for at most <paramref name="maxExpansions"/> (at least 1)
        /// node expansions. Once done it does nothing and reports Done again.
        /// Status.ErrorInvalidArgument when nothing was begun, or another search interrupted it.
        /// </summary>
        public Status AdvancePath(int maxExpansions, out SliceProgress progress)
        {
            // Below 1 goes through as 0, which the library refuses naming max_expansions.
            return NativeMethods.navstar_query_advance_path(this, (uint)Math.Max(maxExpansions, 0), out progress);
        }

        /// <summary>
        /// Ends the search and writes its path into <paramref name="buffer"/>: FindPath's
        /// answer once done, else the best partial path (Status.PartialPath). The search is
        /// over afterwards, so a path longer than the buffer is cut: Status.BufferTooSmall,
        /// <paramref name="count"/> the whole (PathInfo and PathDetails still describe it whole).
        /// Allocates nothing.
        /// </summary>
        public unsafe Status FinishPath(Vector3[] buffer, out int count)
        {
            uint total;
            Status status;
            fixed (Vector3* points = buffer)
            {
                status = NativeMethods.navstar_query_finish_path(
                    this, (float*)points, buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>Cancels the search in progress, if any; returns whether there was one.</summary>
        public unsafe bool CancelPath()
        {
            uint cancelled = 0;
            Status status = NativeMethods.navstar_query_cancel_path(this, &cancelled);
            NavstarException.ThrowIfError(status);
            return cancelled == 1;
        }
    }
}
