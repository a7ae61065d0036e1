// SPDX-License-Identifier: MIT

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>The file formats NavstarMesh.LoadFile and Load read (NAVSTAR_FORMAT_*).</summary>
    public enum MeshFormat : uint
    {
        /// <summary>Files only: told by the extension (.obj, .mesh, .map, .navstar, .bin; any case).</summary>
        Auto = 0,
        /// <summary>Wavefront OBJ: 3D polygons, built with the options' up axis.</summary>
        Obj = 1,
        /// <summary>Polyanya .mesh (versions 2 and 3): 2D, built Z up with z = 0.</summary>
        PolyanyaMesh = 2,
        /// <summary>Moving AI grid map: 2D unit cells merged into rectangles, built Z up with z = 0.</summary>
        MovingAiMap = 3,
        /// <summary>navstar's binary format (Save); the file fixes every option.</summary>
        Navstar = 4,
        /// <summary>Recast/Detour navmesh (.bin): one tile's data or RecastDemo's tile set; built Y up.</summary>
        Detour = 5,
    }

    /// <summary>
    /// Loading meshes in any format, and reading a mesh back (for debug drawing, and to turn
    /// the polygon numbers of corridors and queries into places). Per-polygon arrays follow
    /// <see cref="GetPolygonIds"/>: entry i belongs to its i-th polygon (polygon i of a mesh
    /// built from arrays). Corners are indices into <see cref="GetVertices"/>, which for a
    /// snapshot of a world lists every tile's vertices, tile after tile.
    /// </summary>
    public sealed partial class NavstarMesh
    {
        /// <summary>GetPolygonNeighbours' entry for a wall (NAVSTAR_NO_POLYGON).</summary>
        public const int NoPolygon = -1;

        /// <summary>
        /// Loads a mesh from the file <paramref name="path"/> in <paramref name="format"/>
        /// (Auto: by the extension), read by the native library. An unreadable file or an
        /// unknown extension is Status.ErrorInvalidArgument; malformed text or refused
        /// polygons Status.ErrorInvalidMesh, the message naming the file and the line
        /// ("'level.obj': line 7: ...") or the polygon. <paramref name="mesh"/> is then null.
        /// </summary>
        public static Status TryLoadFile(string path, MeshFormat format, out NavstarMesh mesh)
        {
            return TryLoadFile(path, format, null, out mesh);
        }

        /// <summary>As above, with options (start from MeshOptions.Default).</summary>
        public static Status TryLoadFile(string path, MeshFormat format, MeshOptions options, out NavstarMesh mesh)
        {
            return TryLoadFile(path, format, (MeshOptions?)options, out mesh);
        }

        /// <summary>Loads a mesh file (see TryLoadFile), or throws NavstarException.</summary>
        public static NavstarMesh LoadFile(string path, MeshFormat format)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryLoadFile(path, format, null, out mesh));
            return mesh;
        }

        /// <summary>Loads a Wavefront OBJ file, or throws NavstarException.</summary>
        public static NavstarMesh LoadObj(string path)
        {
            return LoadFile(path, MeshFormat.Obj);
        }

        /// <summary>Loads an OBJ file with options, or throws NavstarException.</summary>
        public static NavstarMesh LoadObj(string path, MeshOptions options)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryLoadFile(path, MeshFormat.Obj, options, out mesh));
            return mesh;
        }

        /// <summary>Loads a Polyanya .mesh file, or throws NavstarException.</summary>
        public static NavstarMesh LoadPolyanyaMesh(string path)
        {
            return LoadFile(path, MeshFormat.PolyanyaMesh);
        }

        /// <summary>Loads a Moving AI grid map, or throws NavstarException.</summary>
        public static NavstarMesh LoadMovingAiMap(string path)
        {
            return LoadFile(path, MeshFormat.MovingAiMap);
        }

        /// <summary>
        /// Loads a mesh from the bytes of a file in <paramref name="format"/> (not Auto);
        /// the bytes are not used after the call. Errors as for TryLoadFile, without a file
        /// name ("line 7: ...").
        /// </summary>
        public static Status TryLoad(byte[] bytes, MeshFormat format, out NavstarMesh mesh)
        {
            return TryLoad(bytes, format, null, out mesh);
        }

        /// <summary>As above, with options.</summary>
        public static Status TryLoad(byte[] bytes, MeshFormat format, MeshOptions options, out NavstarMesh mesh)
        {
            return TryLoad(bytes, format, (MeshOptions?)options, out mesh);
        }

        /// <summary>Loads a mesh from bytes (see TryLoad), or throws NavstarException.</summary>
        public static NavstarMesh Load(byte[] bytes, MeshFormat format)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryLoad(bytes, format, null, out mesh));
            return mesh;
        }

        internal static unsafe Status TryLoadFile(string path, MeshFormat format, MeshOptions? options, out NavstarMesh mesh)
        {
            byte[] text = NativeMethods.Utf8Path(path);
            MeshOptions optionValue = options.GetValueOrDefault();
            fixed (byte* utf8 = text)
            {
                Status status = NativeMethods.navstar_mesh_load(
                    utf8, (uint)format, options.HasValue ? &optionValue : null, out mesh);
                return Checked(status, ref mesh);
            }
        }

        internal static unsafe Status TryLoad(byte[] bytes, MeshFormat format, MeshOptions? options, out NavstarMesh mesh)
        {
            if (bytes == null)
            {
                throw new ArgumentNullException("bytes");
            }
            MeshOptions optionValue = options.GetValueOrDefault();
            fixed (byte* data = bytes)
            {
                Status status = NativeMethods.navstar_mesh_load_bytes(
                    data, (uint)bytes.Length, (uint)format, options.HasValue ? &optionValue : null, out mesh);
                return Checked(status, ref mesh);
            }
        }

        /// <summary>The number of islands (sets of polygons joined by edges or links).</summary>
        public int IslandCount
        {
            get { return (int)NativeMethods.navstar_mesh_island_count(this); }
        }

        /// <summary>
        /// Builds the mesh's landmark table now (call it at load time: the first search that
        /// uses it builds it otherwise, taking up to about a second on large meshes);
        /// <paramref name="hasTable"/> tells whether the mesh has one (none with off-mesh links).
        /// </summary>
        public Status PrepareLandmarks(out bool hasTable)
        {
            uint has;
            Status status = NativeMethods.navstar_mesh_prepare_landmarks(this, out has);
            hasTable = status >= 0 && has != 0;
            return status;
        }

        /// <summary>
        /// Builds the exact mode's fast-lane index now, with no size limit (call it at load
        /// time, before queries start: otherwise a query builds it on its first exact-mode
        /// path on meshes of 500 polygons or more, within a budget, and smaller meshes get
        /// none); <paramref name="hasIndex"/> tells whether the mesh has one (none with
        /// off-mesh links; a world's snapshot gets one for itself alone). Safe while other
        /// threads query the mesh.
        /// </summary>
        public Status PrepareFastLane(out bool hasIndex)
        {
            uint has;
            Status status = NativeMethods.navstar_mesh_prepare_fast_lane(this, out has);
            hasIndex = status >= 0 && has != 0;
            return status;
        }

        /// <summary>Every vertex position (welded and unused ones included).</summary>
        public unsafe Vector3[] GetVertices()
        {
            return ReadAll<Vector3>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_vertices(this, (float*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>The corner count of each polygon.</summary>
        public unsafe int[] GetPolygonSizes()
        {
            return ReadAll<int>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_polygon_sizes(this, (uint*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>
        /// Every polygon's corners (indices into GetVertices), counter-clockwise seen from
        /// above, polygon after polygon: with GetVertices and GetPolygonSizes, what Create takes.
        /// </summary>
        public unsafe int[] GetPolygonCorners()
        {
            return ReadAll<int>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_polygon_corners(this, (uint*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>
        /// Per corner (as GetPolygonCorners): the polygon across the edge from that corner to
        /// the polygon's next one, or <see cref="NoPolygon"/> for a wall.
        /// </summary>
        public unsafe int[] GetPolygonNeighbours()
        {
            return ReadAll<int>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_polygon_neighbours(this, (uint*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>The area id of each polygon.</summary>
        public unsafe byte[] GetPolygonAreas()
        {
            return ReadAll<byte>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_polygon_areas(this, (byte*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>The current flags of each polygon.</summary>
        public unsafe uint[] GetPolygonFlags()
        {
            return ReadAll<uint>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_polygon_flags(this, (uint*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>The island of each polygon (below IslandCount).</summary>
        public unsafe int[] GetPolygonIslands()
        {
            return ReadAll<int>((items, capacity) =>
            {
                uint count;
                Status status = NativeMethods.navstar_mesh_polygon_islands(this, (uint*)items, capacity, out count);
                return Answer(status, count);
            });
        }

        /// <summary>
        /// Writes every vertex position into <paramref name="vertices"/> without allocating;
        /// <paramref name="count"/> is the vertex count. Status.BufferTooSmall when they do
        /// not all fit (the first vertices.Length are written).
        /// </summary>
        public unsafe Status TryGetVertices(Vector3[] vertices, out int count)
        {
            fixed (Vector3* data = vertices)
            {
                return VerticesInto((float*)data, vertices == null ? 0 : vertices.Length, out count);
            }
        }

        /// <summary>
        /// Writes the corner positions of polygon <paramref name="polygon"/> (a number from
        /// GetPolygonIds, a corridor or a query) into <paramref name="points"/> without
        /// allocating; <paramref name="count"/> is its corner count. Status.BufferTooSmall
        /// when they do not all fit (the first points.Length are written);
        /// Status.ErrorInvalidArgument for a polygon the mesh lacks.
        /// </summary>
        public unsafe Status TryGetPolygonPoints(int polygon, Vector3[] points, out int count)
        {
            fixed (Vector3* data = points)
            {
                return PointsInto(polygon, (float*)data, points == null ? 0 : points.Length, out count);
            }
        }

        /// <summary>The corner positions of a polygon (see TryGetPolygonPoints), or throws NavstarException.</summary>
        public Vector3[] GetPolygonPoints(int polygon)
        {
            int count;
            NavstarException.ThrowIfError(TryGetPolygonPoints(polygon, (Vector3[])null, out count));
            var points = new Vector3[count];
            NavstarException.ThrowIfError(TryGetPolygonPoints(polygon, points, out count));
            return points;
        }

        internal unsafe Status VerticesInto(float* xyz, int capacity, out int count)
        {
            uint total;
            Status status = NativeMethods.navstar_mesh_vertices(this, capacity == 0 ? null : xyz, (uint)capacity, out total);
            count = (int)total;
            return status;
        }

        internal unsafe Status PointsInto(int polygon, float* xyz, int capacity, out int count)
        {
            uint total;
            Status status = NativeMethods.navstar_mesh_polygon_points(
                this, (uint)polygon, capacity == 0 ? null : xyz, (uint)capacity, out total);
            count = (int)total;
            return status;
        }

        /// <summary>
        /// The bounding box of the polygons; for a snapshot of an empty world, an empty box
        /// (min +infinity, max -infinity).
        /// </summary>
        public unsafe void GetBounds(out Vector3 min, out Vector3 max)
        {
            Vector3 low, high;
            NavstarException.ThrowIfError(NativeMethods.navstar_mesh_bounds(this, (float*)&low, (float*)&high));
            min = low;
            max = high;
        }

        // The answer of one read-back call: its status and full count.
        private struct Counted
        {
            internal Status Status;
            internal uint Count;
        }

        private static Counted Answer(Status status, uint count)
        {
            return new Counted { Status = status, Count = count };
        }

        private unsafe delegate Counted ReadCall(void* items, uint capacity);

        // Asks for the count, then reads into an array of that size (again if it grew).
        private static unsafe T[] ReadAll<T>(ReadCall call)
            where T : struct
        {
            for (;;)
            {
                Counted first = call(null, 0);
                NavstarException.ThrowIfError(first.Status);
                var items = new T[first.Count];
                Counted second;
                GCHandle pinned = GCHandle.Alloc(items, GCHandleType.Pinned);
                try
                {
                    void* data = items.Length == 0 ? null : (void*)pinned.AddrOfPinnedObject();
                    second = call(data, (uint)items.Length);
                }
                finally
                {
                    pinned.Free();
                }
                NavstarException.ThrowIfError(second.Status);
                if (second.Status == Status.Ok && second.Count == items.Length)
                {
                    return items;
                }
            }
        }
    }
}
