// SPDX-License-Identifier: MIT

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>What <see cref="NavstarCorridor.Repair"/> did.</summary>
    public enum CorridorRepair
    {
        /// <summary>Every polygon is admitted: nothing changed.</summary>
        Valid = 0,
        /// <summary>The part after the first refused polygon was searched again.</summary>
        Repaired = 1,
        /// <summary>The target is cut off: the corridor leads to the reachable point nearest it.</summary>
        CutOff = 2,
    }

    /// <summary>
    /// The corridor that follows one agent (owns a native NavstarCorridor*): the polygons
    /// from its position to its target, trimmed as it moves, its next corners with their
    /// CornerFlags, checked against the current flags and repaired when polygons on it
    /// close (only the part after the closed polygon is searched again). Use from one
    /// thread at a time; it keeps its own reference to the mesh.
    /// </summary>
    public sealed class NavstarCorridor : SafeHandle
    {
        // Used by the P/Invoke marshaller for `out NavstarCorridor`.
        [Preserve]
        private NavstarCorridor()
            : base(IntPtr.Zero, true)
        {
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        protected override bool ReleaseHandle()
        {
            NativeMethods.navstar_corridor_free(handle);
            return true;
        }

        /// <summary>
        /// A corridor through <paramref name="polygons"/> (the agent's polygon first, a
        /// chain of neighbours) from <paramref name="start"/> to <paramref name="target"/>;
        /// null on an error status (a polygon out of range or not a chain: ErrorInvalidArgument).
        /// </summary>
        public static unsafe Status TryCreate(
            NavstarMesh mesh, int[] polygons, Vector3 start, Vector3 target, out NavstarCorridor corridor)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            if (polygons == null)
            {
                throw new ArgumentNullException("polygons");
            }
            Status status;
            fixed (int* list = polygons)
            {
                status = NativeMethods.navstar_corridor_create(
                    mesh, (uint*)list, (uint)polygons.Length, (float*)&start, (float*)&target, out corridor);
            }
            if (status < 0)
            {
                corridor.Dispose();
                corridor = null;
            }
            return status;
        }

        /// <summary>
        /// Sets the radius of the agent followed (navstar_corridor_set_agent_radius): above
        /// the mesh's baked radius, moves slide along the walls moved in by it, the corners
        /// keep it from the walls, Repair searches with it and Optimize walks the disc. Status.ErrorInvalidArgument for a
        /// NaN, infinite or negative radius, or one that no point of the mesh fits.
        /// </summary>
        public Status SetAgentRadius(float agentRadius)
        {
            return NativeMethods.navstar_corridor_set_agent_radius(this, agentRadius);
        }

        /// <summary>Moves the agent along the surface and trims the corridor; onCorridor: still on it.</summary>
        public unsafe Status MovePosition(Vector3 position, out bool onCorridor, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint on = 0;
            Status status = NativeMethods.navstar_corridor_move_position(
                this, (float*)&position, filter.HasValue ? &filterValue : null, &on);
            onCorridor = on == 1;
            return status;
        }

        /// <summary>Moves the target along the surface, extending or trimming the corridor's end.</summary>
        public unsafe Status MoveTarget(Vector3 target, out bool onCorridor, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint on = 0;
            Status status = NativeMethods.navstar_corridor_move_target(
                this, (float*)&target, filter.HasValue ? &filterValue : null, &on);
            onCorridor = on == 1;
            return status;
        }

        /// <summary>The agent's position and the target.</summary>
        public unsafe Status GetPosition(out Vector3 position, out Vector3 target)
        {
            Vector3 p = new Vector3(), t = new Vector3();
            Status status = NativeMethods.navstar_corridor_position(this, (float*)&p, (float*)&t);
            position = p;
            target = t;
            return status;
        }

        /// <summary>
        /// The polygons from the agent's to the target's into <paramref name="polygons"/>;
        /// Status.BufferTooSmall when they do not fit (the first polygons.Length written,
        /// count the full count). Allocates nothing.
        /// </summary>
        public unsafe Status GetPolygons(int[] polygons, out int count)
        {
            uint total;
            Status status;
            fixed (int* list = polygons)
            {
                status = NativeMethods.navstar_corridor_polygons(
                    this, (uint*)list, polygons == null ? 0u : (uint)polygons.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>
        /// The next corners (the agent's position not listed, the target last, flagged
        /// CornerFlags.End) and their flags into the two arrays (flags may be null);
        /// Status.BufferTooSmall when they do not fit (the first points.Length written,
        /// count the full count). Allocates nothing.
        /// </summary>
        public unsafe Status GetCorners(
            Vector3[] points, CornerFlags[] flags, out int count, QueryFilter? filter = null,
            bool splitAtAreaChanges = false)
        {
            if (points == null)
            {
                throw new ArgumentNullException("points");
            }
            if (flags != null && flags.Length < points.Length)
            {
                throw new ArgumentException("flags must have room for as many corners as points", "flags");
            }
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint total;
            Status status;
            fixed (Vector3* p = points)
            fixed (CornerFlags* f = flags)
            {
                status = NativeMethods.navstar_corridor_corners(
                    this, filter.HasValue ? &filterValue : null, splitAtAreaChanges ? 1u : 0u, (float*)p,
                    (uint*)f, (uint)points.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>Whether the first lookAhead polygons are all admitted by the filter.</summary>
        public unsafe Status IsValid(int lookAhead, out bool valid, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint answer;
            Status status = NativeMethods.navstar_corridor_is_valid(
                this, (uint)Math.Max(lookAhead, 0), filter.HasValue ? &filterValue : null, out answer);
            valid = answer == 1;
            return status;
        }

        /// <summary>
        /// Repairs the corridor after polygons on it closed, searching with
        /// <paramref name="query"/> (of the same mesh) from the agent back onto the corridor
        /// past the closed part (within a budget, the rest kept), else from the last admitted
        /// polygon before the break; with SetAgentRadius the searches keep the radius. kept:
        /// the polygons of the old corridor kept at its start.
        /// </summary>
        public unsafe Status Repair(NavstarQuery query, out CorridorRepair outcome, out int kept, QueryFilter? filter = null)
        {
            if (query == null)
            {
                throw new ArgumentNullException("query");
            }
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint code, count;
            Status status = NativeMethods.navstar_corridor_repair(
                this, query, filter.HasValue ? &filterValue : null, out code, out count);
            outcome = (CorridorRepair)code;
            kept = (int)Math.Min(count, int.MaxValue);
            return status;
        }

        /// <summary>Shortens the corridor when the agent sees <paramref name="next"/>; changed: whether it did.</summary>
        public unsafe Status Optimize(Vector3 next, out bool changed, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint answer;
            Status status = NativeMethods.navstar_corridor_optimize(
                this, (float*)&next, filter.HasValue ? &filterValue : null, out answer);
            changed = answer == 1;
            return status;
        }
    }
}
