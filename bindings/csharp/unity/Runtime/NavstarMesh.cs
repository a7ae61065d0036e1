// SPDX-License-Identifier: MIT

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>
    /// An immutable navigation mesh (owns a native NavstarMesh*). Any number of threads may
    /// use one mesh at once; give each thread its own <see cref="NavstarQuery"/>. Dispose
    /// it when done (the finalizer frees it otherwise); queries made from it keep the
    /// native mesh alive by themselves.
    /// </summary>
    /// <remarks>
    /// Two kinds of methods: <c>TryCreate*</c> return the library's <see cref="Status"/>
    /// (the message is then in <see cref="NavstarLibrary.LastErrorMessage"/>), and
    /// <c>Create*</c> throw <see cref="NavstarException"/> with status and message. Both
    /// throw ArgumentNullException / ArgumentException for null arrays and for lengths
    /// that do not match (the native call would read out of bounds).
    /// </remarks>
    public sealed partial class NavstarMesh : SafeHandle
    {
        // Used by the P/Invoke marshaller for `out NavstarMesh`.
        [Preserve]
        private NavstarMesh()
            : base(IntPtr.Zero, true)
        {
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        /// <summary>The number of polygons.</summary>
        public int PolygonCount
        {
            get { return (int)NativeMethods.navstar_mesh_polygon_count(this); }
        }

        /// <summary>
        /// The number of vertices in the numbering of the input: welding merges vertices
        /// at one position but renumbers nothing, so welded and unused vertices count.
        /// Interpolate takes channels floats per vertex of this count.
        /// </summary>
        public int VertexCount
        {
            get { return (int)NativeMethods.navstar_mesh_vertex_count(this); }
        }

        protected override bool ReleaseHandle()
        {
            NativeMethods.navstar_mesh_free(handle);
            return true;
        }

        /// <summary>
        /// Builds a mesh from vertices and convex polygons. <paramref name="polygonSizes"/>
        /// null: every polygon is a triangle (indices.Length a multiple of 3); otherwise
        /// polygon i has polygonSizes[i] corners and the sizes add up to indices.Length.
        /// On an error status <paramref name="mesh"/> is null.
        /// </summary>
        public static Status TryCreate(Vector3[] vertices, int[] indices, int[] polygonSizes, out NavstarMesh mesh)
        {
            return TryCreate(vertices, indices, polygonSizes, null, out mesh);
        }

        /// <summary>As above, with options (start from MeshOptions.Default).</summary>
        public static Status TryCreate(
            Vector3[] vertices, int[] indices, int[] polygonSizes, MeshOptions options, out NavstarMesh mesh)
        {
            return TryCreate(vertices, indices, polygonSizes, (MeshOptions?)options, out mesh);
        }

        /// <summary>Builds a mesh (see TryCreate) or throws NavstarException.</summary>
        public static NavstarMesh Create(Vector3[] vertices, int[] indices, int[] polygonSizes = null)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreate(vertices, indices, polygonSizes, null, out mesh));
            return mesh;
        }

        /// <summary>Builds a mesh with options (see TryCreate) or throws NavstarException.</summary>
        public static NavstarMesh Create(Vector3[] vertices, int[] indices, int[] polygonSizes, MeshOptions options)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreate(vertices, indices, polygonSizes, options, out mesh));
            return mesh;
        }

        /// <summary>
        /// Builds a mesh from a tile grid: cells.Length == width * height, cell (x, y) is
        /// cells[y * width + x], non-zero is walkable. Cell (x, y) covers
        /// [x, x+1] * cellSize along world x and [y, y+1] * cellSize along world z (Y up)
        /// or world y (Z up), from <paramref name="origin"/>.
        /// </summary>
        public static Status TryCreateFromGrid(
            byte[] cells, int width, int height, float cellSize, Vector3 origin, out NavstarMesh mesh)
        {
            return TryCreateFromGrid(cells, width, height, cellSize, origin, null, out mesh);
        }

        public static Status TryCreateFromGrid(
            byte[] cells, int width, int height, float cellSize, Vector3 origin, MeshOptions options,
            out NavstarMesh mesh)
        {
            return TryCreateFromGrid(cells, width, height, cellSize, origin, (MeshOptions?)options, out mesh);
        }

        /// <summary>Builds a grid mesh (see TryCreateFromGrid) or throws NavstarException.</summary>
        public static NavstarMesh CreateFromGrid(byte[] cells, int width, int height, float cellSize, Vector3 origin)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreateFromGrid(cells, width, height, cellSize, origin, null, out mesh));
            return mesh;
        }

        /// <summary>
        /// Saves the mesh in navstar's binary format (.navstar) into <paramref name="buffer"/>
        /// without allocating. <paramref name="size"/> is the size of the saved mesh: when it
        /// exceeds buffer.Length the first buffer.Length bytes are written and the status is
        /// Status.BufferTooSmall. A null or empty buffer asks for the size alone.
        /// </summary>
        public unsafe Status Save(byte[] buffer, out int size)
        {
            uint total;
            Status status;
            fixed (byte* bytes = buffer)
            {
                int capacity = buffer == null ? 0 : buffer.Length;
                status = NativeMethods.navstar_mesh_save(this, capacity == 0 ? null : bytes, (uint)capacity, out total);
            }
            size = total > int.MaxValue ? int.MaxValue : (int)total;
            return status;
        }

        /// <summary>The mesh saved in navstar's binary format; throws NavstarException on errors.</summary>
        public byte[] Save()
        {
            int size;
            NavstarException.ThrowIfError(Save(null, out size));
            var bytes = new byte[size];
            Status status = Save(bytes, out size);
            NavstarException.ThrowIfError(status);
            if (status != Status.Ok)
            {
                throw new NavstarException(status, "navstar_mesh_save: the size changed between two calls");
            }
            return bytes;
        }

        /// <summary>Saves the mesh to the file <paramref name="path"/> (replaced if it exists).</summary>
        public void SaveToFile(string path)
        {
            System.IO.File.WriteAllBytes(path, Save());
        }

        /// <summary>
        /// Loads a mesh saved by Save or `navstar save` from bytes (not used after the call).
        /// A damaged or forged file is Status.ErrorInvalidMesh, its message naming the
        /// section, record and byte offset; <paramref name="mesh"/> is then null.
        /// </summary>
        public static unsafe Status TryLoad(byte[] bytes, out NavstarMesh mesh)
        {
            if (bytes == null)
            {
                throw new ArgumentNullException("bytes");
            }
            fixed (byte* data = bytes)
            {
                Status status = NativeMethods.navstar_mesh_load_navstar_bytes(data, (uint)bytes.Length, out mesh);
                return Checked(status, ref mesh);
            }
        }

        /// <summary>Loads a saved mesh from bytes (see TryLoad), or throws NavstarException.</summary>
        public static NavstarMesh Load(byte[] bytes)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryLoad(bytes, out mesh));
            return mesh;
        }

        /// <summary>
        /// Loads a saved mesh from the file <paramref name="path"/> (read by the native
        /// library). An unreadable file is Status.ErrorInvalidArgument, a refused one
        /// Status.ErrorInvalidMesh; <paramref name="mesh"/> is then null.
        /// </summary>
        public static unsafe Status TryLoadFile(string path, out NavstarMesh mesh)
        {
            byte[] text = NativeMethods.Utf8Path(path);
            fixed (byte* utf8 = text)
            {
                Status status = NativeMethods.navstar_mesh_load_navstar(utf8, out mesh);
                return Checked(status, ref mesh);
            }
        }

        /// <summary>Loads a saved mesh from a file (see TryLoadFile), or throws NavstarException.</summary>
        public static NavstarMesh LoadFile(string path)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryLoadFile(path, out mesh));
            return mesh;
        }

        /// <summary>Makes a query over this mesh (one per thread), or throws NavstarException.</summary>
        public NavstarQuery CreateQuery()
        {
            return NavstarQuery.Create(this);
        }

        internal static unsafe Status TryCreate(
            Vector3[] vertices, int[] indices, int[] polygonSizes, MeshOptions? options, out NavstarMesh mesh)
        {
            if (vertices == null)
            {
                throw new ArgumentNullException("vertices");
            }
            fixed (Vector3* points = vertices)
            {
                return CreateCore((float*)points, vertices.Length, indices, polygonSizes, options, out mesh);
            }
        }

        // The one place that calls navstar_mesh_create: checks that the arrays hold what
        // the call will read, then pins them.
        internal static unsafe Status CreateCore(
            float* xyz, int vertexCount, int[] indices, int[] polygonSizes, MeshOptions? options,
            out NavstarMesh mesh)
        {
            if (indices == null)
            {
                throw new ArgumentNullException("indices");
            }
            uint polygonCount = (uint)PolygonCountOf(indices, polygonSizes);
            MeshOptions optionValue = options.GetValueOrDefault();
            fixed (int* corners = indices)
            fixed (int* sizes = polygonSizes)
            {
                Status status = NativeMethods.navstar_mesh_create(
                    xyz, (uint)vertexCount, (uint*)corners, (uint*)sizes, polygonCount,
                    options.HasValue ? &optionValue : null, out mesh);
                return Checked(status, ref mesh);
            }
        }

        internal static unsafe Status TryCreateFromGrid(
            byte[] cells, int width, int height, float cellSize, Vector3 origin, MeshOptions? options,
            out NavstarMesh mesh)
        {
            if (cells == null)
            {
                throw new ArgumentNullException("cells");
            }
            if (width < 0 || height < 0 || (long)width * height != cells.Length)
            {
                throw new ArgumentException(
                    "cells has " + cells.Length + " entries; width * height is " + ((long)width * height), "cells");
            }
            MeshOptions optionValue = options.GetValueOrDefault();
            fixed (byte* walkable = cells)
            {
                Status status = NativeMethods.navstar_mesh_create_from_grid(
                    walkable, (uint)width, (uint)height, cellSize, (float*)&origin,
                    options.HasValue ? &optionValue : null, out mesh);
                return Checked(status, ref mesh);
            }
        }

        // After an error the marshaller still made an (empty) handle: drop it.
        internal static Status Checked<T>(Status status, ref T handle)
            where T : SafeHandle
        {
            if (status < 0 || (handle != null && handle.IsInvalid))
            {
                if (handle != null)
                {
                    handle.Dispose(); // an empty handle: no native call, the message stays
                }
                handle = null;
            }
            return status;
        }
    }
}
