// SPDX-License-Identifier: MIT
//
// Everything besides A-to-B paths: query filters (area costs, flag masks), meshes with
// per-polygon areas and flags and off-mesh links, flags changed at run time, path
// details (corner flags, corridor, length, cost), the nearest point, raycasts and
// interpolation of per-vertex data (nearest targets and reachable polygons are in
// NavstarTargets.cs). The structs are laid out exactly as in navstar.h.

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
#pragma warning disable 0649 // fields written by the native default constructors
    /// <summary>
    /// Which polygons and links a query may use and what walking through each area costs
    /// (NavstarQueryFilter). Start from <see cref="Default"/>: every area costs 1 and every
    /// item with any flag set is usable. An item is usable when its flags share a bit with
    /// IncludeFlags and none with ExcludeFlags. A plain value: copy it freely, share it
    /// between threads; the library reads it during a call only.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct QueryFilter
    {
        /// <summary>The number of area ids (0 to MaxAreas - 1).</summary>
        public const int MaxAreas = 64;

        private uint structSize;
        private uint includeFlags;
        private uint excludeFlags;
        private fixed float areaCosts[MaxAreas];

        /// <summary>The library's defaults: all costs 1, include all bits, exclude none.</summary>
        public static QueryFilter Default
        {
            get { return NativeMethods.navstar_query_filter_default(); }
        }

        /// <summary>sizeof(NavstarQueryFilter) as this binding was built.</summary>
        public uint StructSize
        {
            get { return structSize; }
        }

        /// <summary>Items must have at least one of these flags (default: all bits).</summary>
        public uint IncludeFlags
        {
            get { return includeFlags; }
            set { includeFlags = value; }
        }

        /// <summary>Items must have none of these flags (default 0).</summary>
        public uint ExcludeFlags
        {
            get { return excludeFlags; }
            set { excludeFlags = value; }
        }

        /// <summary>The cost multiplier of an area (0 to MaxAreas - 1).</summary>
        public float GetAreaCost(int area)
        {
            CheckArea(area);
            fixed (float* costs = areaCosts)
            {
                return costs[area];
            }
        }

        /// <summary>
        /// Sets the cost multiplier of an area: finite and &gt; 0 (checked by the library
        /// when the filter is used). Below 1 makes A* explore more (it stays exact).
        /// </summary>
        public void SetAreaCost(int area, float cost)
        {
            CheckArea(area);
            fixed (float* costs = areaCosts)
            {
                costs[area] = cost;
            }
        }

        private static void CheckArea(int area)
        {
            if (area < 0 || area >= MaxAreas)
            {
                throw new ArgumentOutOfRangeException("area", area, "area ids are 0 to " + (MaxAreas - 1));
            }
        }
    }

    /// <summary>
    /// An off-mesh link (ladder, jump, teleporter) for a mesh built with areas, flags and
    /// links (NavstarOffMeshLink). Start from <see cref="Default"/>.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct OffMeshLink
    {
        /// <summary>Cost value meaning "the 3D distance between the ends" (the default).</summary>
        public const float CostDistance = -1f;

        private Vector3 start;
        private Vector3 end;
        private uint bidirectional;
        private float cost;
        private uint area;
        private uint flags;
        private float radius;

        /// <summary>Two-way, cost = distance, area 0, flags 1, radius 1; both ends at the origin.</summary>
        public static OffMeshLink Default
        {
            get { return NativeMethods.navstar_off_mesh_link_default(); }
        }

        /// <summary>A link from <paramref name="start"/> to <paramref name="end"/> with the defaults otherwise.</summary>
        public static OffMeshLink Between(Vector3 start, Vector3 end, bool bidirectional = true)
        {
            OffMeshLink link = Default;
            link.start = start;
            link.end = end;
            link.Bidirectional = bidirectional;
            return link;
        }

        /// <summary>Where the link is entered (world units).</summary>
        public Vector3 Start
        {
            get { return start; }
            set { start = value; }
        }

        /// <summary>Where it leaves (world units).</summary>
        public Vector3 End
        {
            get { return end; }
            set { end = value; }
        }

        /// <summary>It can also be taken from End to Start (default true).</summary>
        public bool Bidirectional
        {
            get { return bidirectional != 0; }
            set { bidirectional = value ? 1u : 0u; }
        }

        /// <summary>
        /// The cost of taking it in world length units, before the filter's multiplier for
        /// its area: finite and &gt;= 0, or CostDistance.
        /// </summary>
        public float Cost
        {
            get { return cost; }
            set { cost = value; }
        }

        /// <summary>Its area id, below QueryFilter.MaxAreas (default 0).</summary>
        public int Area
        {
            get { return (int)area; }
            set { area = (uint)value; }
        }

        /// <summary>Its initial flags (default 1); change them later with NavstarMesh.SetLinkFlags.</summary>
        public uint Flags
        {
            get { return flags; }
            set { flags = value; }
        }

        /// <summary>How far (3D, world units) each end may be from the mesh (default 1).</summary>
        public float Radius
        {
            get { return radius; }
            set { radius = value; }
        }
    }

    // NavstarMeshInput: filled and pinned by NavstarMesh.TryCreate for one call.
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct MeshInput
    {
        internal uint structSize;
        internal uint vertexCount;
        internal float* vertices;
        internal uint* indices;
        internal uint* polygonSizes;
        internal uint polygonCount;
        internal uint linkCount;
        internal byte* areas;
        internal uint* flags;
        internal OffMeshLink* links;
    }

    /// <summary>The answer of NavstarMesh.Raycast (NavstarRaycastHit).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MeshRaycastHit
    {
        private uint hit;
        private float t;
        private Vector3 point;
        private Vector3 normal;
        private uint polygon;

        /// <summary>True when the walk left the mesh (a wall, or a polygon the filter refuses).</summary>
        public bool Hit
        {
            get { return hit != 0; }
        }

        /// <summary>How far along the ground projection of the segment the walk got, 0 to 1 (1: no hit).</summary>
        public float T
        {
            get { return t; }
        }

        /// <summary>Where it stopped, with the mesh's height there.</summary>
        public Vector3 Point
        {
            get { return point; }
        }

        /// <summary>Unit normal of the wall hit, in the ground plane, pointing back to the walkable side; zero without a hit.</summary>
        public Vector3 Normal
        {
            get { return normal; }
        }

        /// <summary>The polygon the walk was in when it stopped.</summary>
        public int Polygon
        {
            get { return (int)polygon; }
        }
    }

    /// <summary>Summary of a query's last path (NavstarPathInfo).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PathInfo
    {
        private uint pointCount;
        private uint polygonCount;
        private Status status;
        private float length;
        private float cost;

        /// <summary>Number of corners.</summary>
        public int PointCount
        {
            get { return (int)pointCount; }
        }

        /// <summary>Number of polygons of the corridor (the polygons the path crosses).</summary>
        public int PolygonCount
        {
            get { return (int)polygonCount; }
        }

        /// <summary>Status.Ok, Status.PartialPath or Status.PartialNodeLimit.</summary>
        public Status Status
        {
            get { return status; }
        }

        /// <summary>Length in world units.</summary>
        public float Length
        {
            get { return length; }
        }

        /// <summary>Cost under the query's filter (lengths times area costs, plus link costs).</summary>
        public float Cost
        {
            get { return cost; }
        }
    }

    /// <summary>What a corner of a path is (NAVSTAR_CORNER_* bits).</summary>
    [Flags]
    public enum CornerFlags : uint
    {
        /// <summary>No flag.</summary>
        None = 0,
        /// <summary>The first corner.</summary>
        Start = 1,
        /// <summary>The last corner.</summary>
        End = 2,
        /// <summary>An off-mesh link starts here: play its animation to the next corner.</summary>
        LinkStart = 4,
        /// <summary>An off-mesh link ends here.</summary>
        LinkEnd = 8,
        /// <summary>The path enters another area here (PathOptions.SplitAtAreaChanges).</summary>
        AreaChange = 16,
    }

    /// <summary>Details of one corner of a query's last path (NavstarCornerDetail).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CornerDetail
    {
        /// <summary>The Link value of a corner without an off-mesh link (NAVSTAR_NO_LINK).</summary>
        public const uint NoLink = uint.MaxValue;

        private uint flags;
        private uint area;
        private uint link;

        /// <summary>What the corner is.</summary>
        public CornerFlags Flags
        {
            get { return (CornerFlags)flags; }
        }

        /// <summary>The area walked after this corner (the link's area at a link start).</summary>
        public int Area
        {
            get { return (int)area; }
        }

        /// <summary>The off-mesh link taken or arrived by (its index in the links array), or NoLink.</summary>
        public uint Link
        {
            get { return link; }
        }
    }

    public sealed partial class NavstarMesh
    {
        /// <summary>The number of off-mesh links.</summary>
        public int LinkCount
        {
            get { return (int)NativeMethods.navstar_mesh_link_count(this); }
        }

        /// <summary>
        /// Builds a mesh with an area id per polygon (<paramref name="areas"/>, null: area 0),
        /// initial flags per polygon (<paramref name="flags"/>, null: 1) and off-mesh links
        /// (<paramref name="links"/>, null: none); the rest as TryCreate above. The arrays
        /// are copied. On an error status <paramref name="mesh"/> is null.
        /// </summary>
        public static unsafe Status TryCreate(
            Vector3[] vertices, int[] indices, int[] polygonSizes, byte[] areas, uint[] flags, OffMeshLink[] links,
            MeshOptions? options, out NavstarMesh mesh)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            fixed (Vector3* points = vertices)
            {
                return CreateWithData(
                    (float*)points, vertices.Length, indices, polygonSizes, areas, flags, links, options, out mesh);
            }
        }

        // The one place that calls navstar_mesh_create_ex: checks that the arrays hold what
        // the call will read, then pins them. xyz holds vertexCount points.
        internal static unsafe Status CreateWithData(
            float* xyz, int vertexCount, int[] indices, int[] polygonSizes, byte[] areas, uint[] flags,
            OffMeshLink[] links, MeshOptions? options, out NavstarMesh mesh)
        {
            if (indices == null)
            {
                throw new ArgumentNullException("indices");
            }
            int polygonCount = PolygonCountOf(indices, polygonSizes);
            if (areas != null && areas.Length != polygonCount)
            {
                throw new ArgumentException(
                    "areas has " + areas.Length + " entries for " + polygonCount + " polygons", "areas");
            }
            if (flags != null && flags.Length != polygonCount)
            {
                throw new ArgumentException(
                    "flags has " + flags.Length + " entries for " + polygonCount + " polygons", "flags");
            }
            MeshInput input = NativeMethods.navstar_mesh_input_default();
            MeshOptions optionValue = options.GetValueOrDefault();
            fixed (int* corners = indices)
            fixed (int* sizes = polygonSizes)
            fixed (byte* areaIds = areas)
            fixed (uint* flagValues = flags)
            fixed (OffMeshLink* linkValues = links)
            {
                input.vertexCount = (uint)vertexCount;
                input.vertices = xyz;
                input.indices = (uint*)corners;
                input.polygonSizes = (uint*)sizes;
                input.polygonCount = (uint)polygonCount;
                input.areas = areaIds;
                input.flags = flagValues;
                input.links = linkValues;
                input.linkCount = links == null ? 0u : (uint)links.Length;
                Status status = NativeMethods.navstar_mesh_create_ex(
                    &input, options.HasValue ? &optionValue : null, out mesh);
                return Checked(status, ref mesh);
            }
        }

        /// <summary>Builds a mesh with areas, flags and links (see TryCreate) or throws NavstarException.</summary>
        public static NavstarMesh Create(
            Vector3[] vertices, int[] indices, int[] polygonSizes, byte[] areas, uint[] flags, OffMeshLink[] links,
            MeshOptions? options = null)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreate(vertices, indices, polygonSizes, areas, flags, links, options, out mesh));
            return mesh;
        }

        /// <summary>
        /// Changes a polygon's flags while other threads may query (a door closes: clear a
        /// bit your filters include). No lock; each query sees the old or the new flags.
        /// <paramref name="previous"/> gets the flags before the change.
        /// </summary>
        public unsafe Status SetPolygonFlags(int polygon, uint flags, out uint previous)
        {
            uint before = 0;
            Status status = NativeMethods.navstar_mesh_set_polygon_flags(this, (uint)polygon, flags, &before);
            previous = before;
            return status;
        }

        /// <summary>Changes a polygon's flags (see above) or throws NavstarException (polygon out of range).</summary>
        public void SetPolygonFlags(int polygon, uint flags)
        {
            uint previous;
            NavstarException.ThrowIfError(SetPolygonFlags(polygon, flags, out previous));
        }

        /// <summary>A polygon's current flags and its area id.</summary>
        public Status GetPolygonInfo(int polygon, out uint flags, out int area)
        {
            uint areaId;
            Status status = NativeMethods.navstar_mesh_polygon_info(this, (uint)polygon, out flags, out areaId);
            area = (int)areaId;
            return status;
        }

        /// <summary>Changes an off-mesh link's flags (as SetPolygonFlags); <paramref name="link"/> indexes the links array.</summary>
        public unsafe Status SetLinkFlags(int link, uint flags, out uint previous)
        {
            uint before = 0;
            Status status = NativeMethods.navstar_mesh_set_link_flags(this, (uint)link, flags, &before);
            previous = before;
            return status;
        }

        /// <summary>
        /// The point of the mesh nearest to <paramref name="point"/> (3D) within
        /// <paramref name="maxDistance"/> (world units; float.PositiveInfinity for any),
        /// among the polygons the filter admits (null: the default filter). Status.ErrorNotOnMesh
        /// when none is that close (outputs zero).
        /// </summary>
        public unsafe Status NearestPoint(
            Vector3 point, float maxDistance, out Vector3 nearest, out int polygon, out float distance,
            QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            Vector3 found = new Vector3();
            uint polygonId = 0;
            float far = 0;
            Status status = NativeMethods.navstar_mesh_nearest_point(
                this, (float*)&point, maxDistance, filter.HasValue ? &filterValue : null, (float*)&found,
                out polygonId, out far);
            bool ok = status >= 0;
            nearest = ok ? found : new Vector3();
            polygon = ok ? (int)polygonId : -1;
            distance = ok ? far : 0;
            return status;
        }

        /// <summary>
        /// Walks straight from <paramref name="start"/> (moved to the mesh) towards
        /// <paramref name="end"/> along the surface, as Unity's NavMesh.Raycast: returns true
        /// when the walk is stopped before <paramref name="end"/> (a wall, or a polygon the
        /// filter refuses), false when it gets there; <paramref name="hit"/> says where it
        /// stopped. Throws NavstarException for errors (a non-finite point, a start off
        /// every admitted polygon); TryRaycast returns them as a status instead.
        /// </summary>
        public bool Raycast(Vector3 start, Vector3 end, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            NavstarException.ThrowIfError(TryRaycast(start, end, out hit, filter));
            return hit.Hit;
        }

        /// <summary>
        /// The raycast of <see cref="Raycast"/> with its status: Status.Ok whether it hit or
        /// not (read <see cref="MeshRaycastHit.Hit"/>), an error status with the message in
        /// NavstarLibrary.LastErrorMessage otherwise.
        /// </summary>
        public unsafe Status TryRaycast(Vector3 start, Vector3 end, out MeshRaycastHit hit, QueryFilter? filter = null)
        {
            QueryFilter filterValue = filter.GetValueOrDefault();
            return NativeMethods.navstar_mesh_raycast(
                this, (float*)&start, (float*)&end, filter.HasValue ? &filterValue : null, out hit);
        }

        /// <summary>
        /// Interpolates per-vertex data at <paramref name="point"/>: <paramref name="values"/>
        /// holds <paramref name="channels"/> floats per vertex (vertex after vertex, for
        /// <see cref="VertexCount"/> vertices),
        /// <paramref name="output"/> receives <paramref name="channels"/> floats. The point is
        /// moved to the nearest admitted polygon; barycentric on triangles, mean value
        /// coordinates on larger polygons. The mesh keeps nothing.
        /// </summary>
        public unsafe Status Interpolate(
            Vector3 point, float[] values, int channels, float[] output, out int polygon, QueryFilter? filter = null)
        {
            if (values == null)
            {
                throw new ArgumentNullException("values");
            }
            if (output == null)
            {
                throw new ArgumentNullException("output");
            }
            if (channels < 1 || output.Length < channels)
            {
                throw new ArgumentException(
                    "output has " + output.Length + " entries for " + channels + " channels", "output");
            }
            QueryFilter filterValue = filter.GetValueOrDefault();
            uint polygonId = 0;
            Status status;
            fixed (float* data = values)
            fixed (float* result = output)
            {
                status = NativeMethods.navstar_mesh_interpolate(
                    this, (float*)&point, data, (uint)values.Length, (uint)channels,
                    filter.HasValue ? &filterValue : null, result, out polygonId);
            }
            polygon = status >= 0 ? (int)polygonId : -1;
            return status;
        }

        // The polygon count described by indices and sizes; throws when they disagree (the
        // native call would read out of bounds).
        private static int PolygonCountOf(int[] indices, int[] polygonSizes)
        {
            if (polygonSizes == null)
            {
                if (indices.Length % 3 != 0)
                {
                    throw new ArgumentException(
                        "indices has " + indices.Length + " entries, not a multiple of 3 (triangles)", "indices");
                }
                return indices.Length / 3;
            }
            ulong sum = 0;
            foreach (int size in polygonSizes)
            {
                sum += (uint)size;
            }
            if (sum != (ulong)indices.Length)
            {
                throw new ArgumentException(
                    "polygonSizes add up to " + sum + " corners but indices has " + indices.Length + " entries",
                    "polygonSizes");
            }
            return polygonSizes.Length;
        }
    }

    public sealed partial class NavstarQuery
    {
        /// <summary>
        /// FindPath (into a buffer, no allocation) under a filter: its area costs and flag
        /// masks apply. The filter is read during the call only.
        /// </summary>
        public unsafe Status FindPath(
            Vector3 start, Vector3 goal, PathOptions options, QueryFilter filter, Vector3[] buffer, out int count)
        {
            options.FilterPointer = (IntPtr)(&filter);
            fixed (Vector3* points = buffer)
            {
                return Find((float*)&start, (float*)&goal, &options, (float*)points,
                            buffer == null ? 0 : buffer.Length, out count);
            }
        }

        /// <summary>FindPath under a filter, as a new array; throws NavstarException on errors.</summary>
        public unsafe Vector3[] FindPath(Vector3 start, Vector3 goal, PathOptions options, QueryFilter filter, out bool partial)
        {
            options.FilterPointer = (IntPtr)(&filter);
            int count;
            Vector3[] points = FindIntoScratch((float*)&start, (float*)&goal, options, out count, out partial);
            Vector3[] result = new Vector3[count];
            Array.Copy(points, result, count);
            return result;
        }

        /// <summary>Summary of the last path (FindPath or FindNearestTarget); Status.ErrorInvalidArgument before any.</summary>
        public Status GetPathInfo(out PathInfo info)
        {
            return NativeMethods.navstar_query_path_info(this, out info);
        }

        /// <summary>
        /// The details of the last path's corners into <paramref name="buffer"/> (one per
        /// path point); count and Status.BufferTooSmall as for FindPath.
        /// </summary>
        public unsafe Status GetPathDetails(CornerDetail[] buffer, out int count)
        {
            uint total;
            Status status;
            fixed (CornerDetail* details = buffer)
            {
                status = NativeMethods.navstar_query_path_details(
                    this, details, buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>The details of the last path's corners as a new array; throws NavstarException on errors.</summary>
        public CornerDetail[] GetPathDetails()
        {
            int count;
            NavstarException.ThrowIfError(GetPathDetails(null, out count));
            CornerDetail[] details = new CornerDetail[count];
            NavstarException.ThrowIfError(GetPathDetails(details, out count));
            return details;
        }

        /// <summary>The polygons of the last path's corridor, start to goal, into <paramref name="buffer"/>.</summary>
        public unsafe Status GetPathCorridor(int[] buffer, out int count)
        {
            uint total;
            Status status;
            fixed (int* polygons = buffer)
            {
                status = NativeMethods.navstar_query_path_corridor(
                    this, (uint*)polygons, buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            count = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>The last path's corridor as a new array; throws NavstarException on errors.</summary>
        public int[] GetPathCorridor()
        {
            int count;
            NavstarException.ThrowIfError(GetPathCorridor(null, out count));
            int[] polygons = new int[count];
            NavstarException.ThrowIfError(GetPathCorridor(polygons, out count));
            return polygons;
        }
    }
}
