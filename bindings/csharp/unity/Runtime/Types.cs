// SPDX-License-Identifier: MIT
//
// Plain data shared with the C ABI: statuses, points and options, laid out exactly as
// in navstar.h.

using System;
using System.Globalization;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>The C status codes (NAVSTAR_*). Values &gt;= 0 are successes, &lt; 0 errors.</summary>
    public enum Status : int
    {
        /// <summary>Success.</summary>
        Ok = 0,
        /// <summary>The goal is unreachable; the path leads to the reachable point closest to it.</summary>
        PartialPath = 1,
        /// <summary>The path did not fit: the buffer holds its first points, the count says how many it has.</summary>
        BufferTooSmall = 2,
        /// <summary>
        /// Partial because a search stopped at the query's node limit (QueryOptions.MaxNodes):
        /// the path leads to the reached point closest to the goal (which may be reachable);
        /// a list of reachable polygons holds those found before the limit.
        /// </summary>
        PartialNodeLimit = 3,
        /// <summary>A required pointer (handle) was NULL.</summary>
        ErrorNullArgument = -1,
        /// <summary>NaN/Inf coordinate, bad option value, bad count.</summary>
        ErrorInvalidArgument = -2,
        /// <summary>Mesh input rejected; the message names the polygon/edge/vertex and the reason.</summary>
        ErrorInvalidMesh = -3,
        /// <summary>Start or goal is farther from the mesh than the allowed snap distance.</summary>
        ErrorNotOnMesh = -4,
        /// <summary>The goal is unreachable and partial paths were not allowed.</summary>
        ErrorNoPath = -5,
        /// <summary>Memory could not be allocated.</summary>
        ErrorOutOfMemory = -6,
        /// <summary>A tile or polygon reference names a tile that was removed or replaced (or of another world).</summary>
        ErrorStaleReference = -7,
        /// <summary>A bug in navstar: a panic was caught at the boundary.</summary>
        ErrorInternal = -100,
    }

    /// <summary>Which world axis points up (MeshOptions.UpAxis).</summary>
    public enum UpAxis : uint
    {
        /// <summary>Y up: Unity, Godot, Detour (the default).</summary>
        Y = 0,
        /// <summary>Z up: Unreal, or 2D games passing z = 0.</summary>
        Z = 1,
    }

    /// <summary>The corridor search (PathOptions.Strategy).</summary>
    public enum SearchStrategy : uint
    {
        /// <summary>A* with the straight-line heuristic (the default); weighted A* with HeuristicWeight &gt; 1.</summary>
        AStar = 0,
        /// <summary>Dijkstra: the cheapest corridor, like A*, after more work.</summary>
        Dijkstra = 1,
        /// <summary>Greedy best-first: fast, no bound on the cost.</summary>
        Greedy = 2,
        /// <summary>Breadth-first: fewest polygon steps, no bound on the cost.</summary>
        BreadthFirst = 3,
        /// <summary>Depth-first: some corridor, no bound on the cost.</summary>
        DepthFirst = 4,
    }

    /// <summary>How a path is found (NAVSTAR_PATH_* in navstar.h).</summary>
    public enum PathMode : uint
    {
        /// <summary>A* over the polygons, then the funnel algorithm; honours area costs and off-mesh links.</summary>
        Funnel = 0,
        /// <summary>The exact shortest path in the ground plane (any-angle search over the mesh).</summary>
        Optimal = 1,
        /// <summary>The default: Optimal wherever it answers what was asked (all area costs equal, no off-mesh
        /// link, A* with weight 1, no split at area changes), Funnel otherwise.</summary>
        Auto = 2,
    }

    /// <summary>
    /// A point as the C ABI reads and writes it: three floats, blittable. In Unity it
    /// converts implicitly to and from UnityEngine.Vector3 (same layout), and every API
    /// also has UnityEngine.Vector3 overloads.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public partial struct Vector3 : IEquatable<Vector3>
    {
        public float X;
        public float Y;
        public float Z;

        public Vector3(float x, float y, float z)
        {
            X = x;
            Y = y;
            Z = z;
        }

        public bool Equals(Vector3 other)
        {
            return X.Equals(other.X) && Y.Equals(other.Y) && Z.Equals(other.Z);
        }

        public override bool Equals(object obj)
        {
            return obj is Vector3 && Equals((Vector3)obj);
        }

        public override int GetHashCode()
        {
            return X.GetHashCode() ^ (Y.GetHashCode() << 2) ^ (Z.GetHashCode() >> 2);
        }

        public static bool operator ==(Vector3 a, Vector3 b)
        {
            return a.Equals(b);
        }

        public static bool operator !=(Vector3 a, Vector3 b)
        {
            return !a.Equals(b);
        }

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "({0}, {1}, {2})", X, Y, Z);
        }
    }

#pragma warning disable 0649 // fields written by the native default constructors
    /// <summary>
    /// Options for building a mesh. Start from <see cref="Default"/>: a
    /// <c>new MeshOptions()</c> has StructSize 0, which the library rejects with
    /// ErrorInvalidArgument.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct MeshOptions
    {
        private uint structSize;
        private uint upAxis;
        private uint weldVertices;
        private float weldDistance;
        private uint allowDegenerateConnectors;
        private float agentRadius;

        /// <summary>The library's defaults: Y up, welding of exactly coincident vertices.</summary>
        public static MeshOptions Default
        {
            get { return NativeMethods.navstar_mesh_options_default(); }
        }

        /// <summary>sizeof(NavstarMeshOptions) as this binding was built (lets the library version the struct).</summary>
        public uint StructSize
        {
            get { return structSize; }
            set { structSize = value; }
        }

        public UpAxis UpAxis
        {
            get { return (UpAxis)upAxis; }
            set { upAxis = (uint)value; }
        }

        /// <summary>Merge vertices within WeldDistance before finding shared edges (default true).</summary>
        public bool WeldVertices
        {
            get { return weldVertices != 0; }
            set { weldVertices = value ? 1u : 0u; }
        }

        /// <summary>World units; default 0 (only vertices at exactly the same position). Finite, &gt;= 0.</summary>
        public float WeldDistance
        {
            get { return weldDistance; }
            set { weldDistance = value; }
        }

        /// <summary>
        /// Accept degenerate connectors: zero-area triangles (three corners on one line) that
        /// join the polygons along their edges as a walkable line (default false: an error).
        /// </summary>
        public bool AllowDegenerateConnectors
        {
            get { return allowDegenerateConnectors != 0; }
            set { allowDegenerateConnectors = value ? 1u : 0u; }
        }

        /// <summary>
        /// The radius of the agent the mesh was baked for (world units, default 0); path
        /// queries erode the mesh by what their AgentRadius exceeds it by.
        /// </summary>
        public float AgentRadius
        {
            get { return agentRadius; }
            set { agentRadius = value; }
        }
    }

    /// <summary>
    /// Options for making a query (NavstarQuery.Create). Start from <see cref="Default"/>
    /// (a <c>new QueryOptions()</c> is rejected, as for MeshOptions).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct QueryOptions
    {
        private uint structSize;
        private uint maxNodes;

        /// <summary>The library's defaults: no node limit.</summary>
        public static QueryOptions Default
        {
            get { return NativeMethods.navstar_query_options_default(); }
        }

        /// <summary>sizeof(NavstarQueryOptions) as this binding was built.</summary>
        public uint StructSize
        {
            get { return structSize; }
            set { structSize = value; }
        }

        /// <summary>
        /// The most search nodes each search may touch (Detour's maxNodes); 0 (default) for
        /// no limit. A search the limit cuts gives Status.PartialNodeLimit. Nothing is
        /// allocated up front, whatever the value.
        /// </summary>
        public uint MaxNodes
        {
            get { return maxNodes; }
            set { maxNodes = value; }
        }
    }

    /// <summary>
    /// Options for a path query. Start from <see cref="Default"/> (a <c>new PathOptions()</c>
    /// is rejected, as for MeshOptions).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PathOptions
    {
        private uint structSize;
        private uint strategy;
        private float heuristicWeight;
        private float maxSnapDistance;
        private uint allowPartial;
        private uint mode;
        // const NavstarQueryFilter *: NULL (the default filter) unless a caller pins one.
        private IntPtr filter;
        private uint splitAtAreaChanges;
        private float agentRadius;
#pragma warning disable 0169 // Must stay 0: room for a later option of navstar.h.
        private uint reserved;
#pragma warning restore 0169

        /// <summary>The library's defaults: A*, weight 1, unlimited snapping, partial paths allowed.</summary>
        public static PathOptions Default
        {
            get { return NativeMethods.navstar_path_options_default(); }
        }

        public uint StructSize
        {
            get { return structSize; }
            set { structSize = value; }
        }

        public SearchStrategy Strategy
        {
            get { return (SearchStrategy)strategy; }
            set { strategy = (uint)value; }
        }

        /// <summary>Multiplies the A* heuristic (default 1); above 1 is faster and may give longer paths.</summary>
        public float HeuristicWeight
        {
            get { return heuristicWeight; }
            set { heuristicWeight = value; }
        }

        /// <summary>How far start and goal may be from the mesh (default: infinity).</summary>
        public float MaxSnapDistance
        {
            get { return maxSnapDistance; }
            set { maxSnapDistance = value; }
        }

        /// <summary>true (default): an unreachable goal gives Status.PartialPath; false: Status.ErrorNoPath.</summary>
        public bool AllowPartial
        {
            get { return allowPartial != 0; }
            set { allowPartial = value ? 1u : 0u; }
        }

        /// <summary>PathMode.Auto (default), PathMode.Funnel (A* and the funnel) or PathMode.Optimal (exact shortest paths).</summary>
        public PathMode Mode
        {
            get { return (PathMode)mode; }
            set { mode = (uint)value; }
        }

        /// <summary>Add a corner (CornerFlags.AreaChange) where the path enters another area (default false).</summary>
        public bool SplitAtAreaChanges
        {
            get { return splitAtAreaChanges != 0; }
            set { splitAtAreaChanges = value ? 1u : 0u; }
        }

        /// <summary>
        /// The agent's radius (world units, default 0: a point). Above the mesh's baked
        /// radius, paths keep this distance from every wall, start and goal move to where
        /// the disc fits, and a path exists exactly when the disc can pass.
        /// </summary>
        public float AgentRadius
        {
            get { return agentRadius; }
            set { agentRadius = value; }
        }

        // Set for one call by the FindPath overloads that take a filter (pinned meanwhile).
        internal IntPtr FilterPointer
        {
            get { return filter; }
            set { filter = value; }
        }
    }

    /// <summary>
    /// Options for a world of tiles. Start from <see cref="Default"/> (a
    /// <c>new WorldOptions()</c> is rejected, as for MeshOptions).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct WorldOptions
    {
        private uint structSize;
        private uint upAxis;
        private uint maxTiles;
        private float seamTolerance;
        private float climb;

        /// <summary>The library's defaults: Y up, room for 1024 tiles, seam tolerance 0.001, climb 0.25.</summary>
        public static WorldOptions Default
        {
            get { return NativeMethods.navstar_world_options_default(); }
        }

        public uint StructSize
        {
            get { return structSize; }
            set { structSize = value; }
        }

        /// <summary>Every tile must be built with this up axis.</summary>
        public UpAxis UpAxis
        {
            get { return (UpAxis)upAxis; }
            set { upAxis = (uint)value; }
        }

        /// <summary>How many tiles the world holds at once: a power of two.</summary>
        public int MaxTiles
        {
            get { return (int)Math.Min(maxTiles, int.MaxValue); }
            set { maxTiles = (uint)value; }
        }

        /// <summary>How far apart (ground plane, world units) wall edges of two tiles may be and still join.</summary>
        public float SeamTolerance
        {
            get { return seamTolerance; }
            set { seamTolerance = value; }
        }

        /// <summary>The largest height difference at the ends of a seam that still joins.</summary>
        public float Climb
        {
            get { return climb; }
            set { climb = value; }
        }
    }
#pragma warning restore 0649

    /// <summary>
    /// A tile of a world: which world, which slot, which filling of the slot. Plain data;
    /// a reference to a tile that is gone is refused with Status.ErrorStaleReference.
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct TileRef : IEquatable<TileRef>
    {
        public uint World;
        public uint Slot;
        public uint Generation;

        public bool Equals(TileRef other)
        {
            return World == other.World && Slot == other.Slot && Generation == other.Generation;
        }

        public override bool Equals(object obj)
        {
            return obj is TileRef && Equals((TileRef)obj);
        }

        public override int GetHashCode()
        {
            return (int)(World * 31 + Slot * 17 + Generation);
        }

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "tile (world {0}, slot {1}, generation {2})", World, Slot, Generation);
        }
    }

    /// <summary>
    /// Keeps members that only the P/Invoke marshaller uses (the handles' private
    /// constructors) from being stripped: Unity's linker honours any attribute named
    /// PreserveAttribute.
    /// </summary>
    [AttributeUsage(AttributeTargets.Constructor | AttributeTargets.Class)]
    internal sealed class PreserveAttribute : Attribute
    {
    }

    /// <summary>An error status of the library with its message (thrown by the convenience APIs).</summary>
    public class NavstarException : Exception
    {
        public NavstarException(Status status, string message)
            : base(message)
        {
            Status = status;
        }

        public Status Status { get; private set; }

        /// <summary>Throws for an error status, with the thread's last error message.</summary>
        internal static void ThrowIfError(Status status)
        {
            if (status < 0)
            {
                throw new NavstarException(status, NavstarLibrary.LastErrorMessage);
            }
        }
    }

    /// <summary>Library-wide information.</summary>
    public static class NavstarLibrary
    {
        /// <summary>(major &lt;&lt; 16) | (minor &lt;&lt; 8) | patch of the loaded native library.</summary>
        public static uint Version
        {
            get { return NativeMethods.navstar_version(); }
        }

        /// <summary>"0.1.0"</summary>
        public static string VersionString
        {
            get
            {
                uint v = NativeMethods.navstar_version();
                return string.Format(CultureInfo.InvariantCulture, "{0}.{1}.{2}", v >> 16, (v >> 8) & 0xff, v & 0xff);
            }
        }

        /// <summary>
        /// The message of the last failed navstar call on this thread ("" after a success):
        /// read it right after a call that returned an error status.
        /// </summary>
        public static string LastErrorMessage
        {
            get { return NativeMethods.Utf8(NativeMethods.navstar_last_error_message()); }
        }

        /// <summary>"NAVSTAR_OK", "NAVSTAR_ERROR_INVALID_MESH", ...</summary>
        public static string StatusName(Status status)
        {
            return NativeMethods.Utf8(NativeMethods.navstar_status_name((int)status));
        }
    }
}
