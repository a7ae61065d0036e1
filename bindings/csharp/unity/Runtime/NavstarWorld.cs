// SPDX-License-Identifier: MIT
//
// A world of tiles (navstar_world_* in navstar.h): tiles added, removed and replaced
// while other threads query snapshots of the world; polygon references that survive
// snapshots; saving and loading a world.

using System;
using System.Runtime.InteropServices;

namespace Navstar
{
    /// <summary>
    /// A world of tiles (owns a native NavstarWorld*). Each tile is a
    /// <see cref="NavstarMesh"/> in world coordinates, joined to its neighbours wherever
    /// their wall edges overlap. <see cref="Snapshot"/> gives the world as it is now as a
    /// mesh that every query takes; it never changes, and keeps its tiles alive. Any number
    /// of threads may use one world at once. Dispose it when done.
    /// </summary>
    /// <remarks>
    /// As for meshes, <c>Try*</c> methods return the library's <see cref="Status"/> (the
    /// message is then in <see cref="NavstarLibrary.LastErrorMessage"/>) and the others
    /// throw <see cref="NavstarException"/>.
    /// </remarks>
    public sealed partial class NavstarWorld : SafeHandle
    {
        // Used by the P/Invoke marshaller for `out NavstarWorld`.
        [Preserve]
        private NavstarWorld()
            : base(IntPtr.Zero, true)
        {
        }

        public override bool IsInvalid
        {
            get { return handle == IntPtr.Zero; }
        }

        /// <summary>The number of tiles in the world now.</summary>
        public int TileCount
        {
            get { return (int)NativeMethods.navstar_world_tile_count(this); }
        }

        protected override bool ReleaseHandle()
        {
            NativeMethods.navstar_world_free(handle);
            return true;
        }

        /// <summary>An empty world with the default options.</summary>
        public static Status TryCreate(out NavstarWorld world)
        {
            return TryCreate(null, out world);
        }

        /// <summary>An empty world (start the options from WorldOptions.Default).</summary>
        public static Status TryCreate(WorldOptions options, out NavstarWorld world)
        {
            return TryCreate((WorldOptions?)options, out world);
        }

        /// <summary>An empty world, or throws NavstarException.</summary>
        public static NavstarWorld Create(WorldOptions? options = null)
        {
            NavstarWorld world;
            NavstarException.ThrowIfError(TryCreate(options, out world));
            return world;
        }

        private static unsafe Status TryCreate(WorldOptions? options, out NavstarWorld world)
        {
            WorldOptions value = options.GetValueOrDefault();
            Status status = NativeMethods.navstar_world_create(options.HasValue ? &value : null, out world);
            return NavstarMesh.Checked(status, ref world);
        }

        /// <summary>
        /// Adds a tile (copied: it may be disposed afterwards), joined to the tiles present.
        /// On an error status <paramref name="added"/> is all zeros.
        /// </summary>
        public Status TryAddTile(NavstarMesh tile, out TileRef added)
        {
            if (tile == null)
            {
                throw new ArgumentNullException("tile");
            }
            return NativeMethods.navstar_world_add_tile(this, tile, out added);
        }

        /// <summary>Adds a tile (see TryAddTile) or throws NavstarException.</summary>
        public TileRef AddTile(NavstarMesh tile)
        {
            TileRef added;
            NavstarException.ThrowIfError(TryAddTile(tile, out added));
            return added;
        }

        /// <summary>
        /// Adds a whole mesh as square tiles of side <paramref name="tileSize"/> (world
        /// units; the mesh is copied), published at once with the links between them, and
        /// returns the tiles' references in the grid's row order. Throws NavstarException,
        /// and adds nothing, for a tile size that is not finite and &gt; 0, a mesh of another
        /// up axis or a snapshot, or fewer free slots than tiles.
        /// </summary>
        public unsafe TileRef[] AddMeshTiles(NavstarMesh mesh, float tileSize)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            uint count = 0;
            for (;;)
            {
                // Nothing is added until every reference fits: the first call asks for the count.
                TileRef[] tiles = new TileRef[count];
                Status status;
                fixed (TileRef* outTiles = tiles)
                {
                    status = NativeMethods.navstar_world_add_mesh_tiles(this, mesh, tileSize, outTiles, count, out count);
                }
                NavstarException.ThrowIfError(status);
                if (status == Status.Ok)
                {
                    return tiles;
                }
            }
        }

        /// <summary>Removes a tile; Status.ErrorStaleReference when it is gone already.</summary>
        public Status TryRemoveTile(TileRef tile)
        {
            return NativeMethods.navstar_world_remove_tile(this, tile);
        }

        /// <summary>Removes a tile (see TryRemoveTile) or throws NavstarException.</summary>
        public void RemoveTile(TileRef tile)
        {
            NavstarException.ThrowIfError(TryRemoveTile(tile));
        }

        /// <summary>
        /// Replaces a tile by <paramref name="mesh"/> in one step; <paramref name="replaced"/>
        /// is the new tile (same slot, next generation), all zeros on an error status.
        /// </summary>
        public Status TryReplaceTile(TileRef tile, NavstarMesh mesh, out TileRef replaced)
        {
            if (mesh == null)
            {
                throw new ArgumentNullException("mesh");
            }
            return NativeMethods.navstar_world_replace_tile(this, tile, mesh, out replaced);
        }

        /// <summary>Replaces a tile (see TryReplaceTile) or throws NavstarException.</summary>
        public TileRef ReplaceTile(TileRef tile, NavstarMesh mesh)
        {
            TileRef replaced;
            NavstarException.ThrowIfError(TryReplaceTile(tile, mesh, out replaced));
            return replaced;
        }

        /// <summary>
        /// Builds landmark tables for the world as it is now and publishes a snapshot with them
        /// (snapshots taken later use them); later snapshots keep them through tile removals,
        /// added obstacles, a tile added back or replaced by an equal mesh, an obstacle added
        /// later moved or removed, and ground they never saw (a tile that was not in the world at
        /// the build, an obstacle present at the build moved or removed), which caps each bound
        /// at the goal's distance to it; much such ground (a tenth of the world left without bounds, or 64 tiles) drops them: call it
        /// again then. Returns whether the world has them
        /// (with off-mesh links, only for the merged copy the exact mode searches).
        /// </summary>
        public bool PrepareLandmarks()
        {
            uint has;
            NavstarException.ThrowIfError(NativeMethods.navstar_world_prepare_landmarks(this, out has));
            return has != 0;
        }

        /// <summary>
        /// Builds the exact mode's fast-lane index for the world as it is now and publishes a
        /// snapshot with it: exact-mode paths on snapshots taken after it are answered from the
        /// index. Any later tile or obstacle change drops it (flag changes keep it); a world never
        /// builds one by itself. Returns whether the world has one (none with off-mesh links, or
        /// when a change overtook the build: call it again).
        /// </summary>
        public bool PrepareFastLane()
        {
            uint has;
            NavstarException.ThrowIfError(NativeMethods.navstar_world_prepare_fast_lane(this, out has));
            return has != 0;
        }

        /// <summary>The world as it is now, as an immutable mesh (dispose it when done).</summary>
        public NavstarMesh Snapshot()
        {
            NavstarMesh mesh;
            Status status = NativeMethods.navstar_world_snapshot(this, out mesh);
            NavstarException.ThrowIfError(NavstarMesh.Checked(status, ref mesh));
            return mesh;
        }

        /// <summary>The tiles present now, by slot (for a world just loaded, or to walk every tile).</summary>
        public unsafe TileRef[] GetTiles()
        {
            for (;;)
            {
                uint count;
                NavstarException.ThrowIfError(NativeMethods.navstar_world_tiles(this, null, 0, out count));
                TileRef[] tiles = new TileRef[count];
                Status status;
                fixed (TileRef* outTiles = tiles)
                {
                    status = NativeMethods.navstar_world_tiles(this, outTiles, count, out count);
                }
                NavstarException.ThrowIfError(status);
                if (status == Status.Ok && count == tiles.Length)
                {
                    return tiles;
                }
            }
        }

        /// <summary>
        /// Writes the world in the world format into <paramref name="buffer"/>;
        /// <paramref name="size"/> is its full size. Status.BufferTooSmall when it does not
        /// fit (a null buffer asks for the size alone).
        /// </summary>
        public unsafe Status Save(byte[] buffer, out int size)
        {
            uint total;
            Status status;
            fixed (byte* bytes = buffer)
            {
                status = NativeMethods.navstar_world_save(this, bytes, buffer == null ? 0u : (uint)buffer.Length, out total);
            }
            size = (int)Math.Min(total, int.MaxValue);
            return status;
        }

        /// <summary>The world in the world format, as a new array; throws NavstarException on errors.</summary>
        public byte[] Save()
        {
            for (;;)
            {
                int size;
                NavstarException.ThrowIfError(Save(null, out size));
                byte[] bytes = new byte[size];
                Status status = Save(bytes, out size);
                NavstarException.ThrowIfError(status);
                if (status == Status.Ok && size == bytes.Length)
                {
                    return bytes;
                }
            }
        }

        /// <summary>Saves the world to the file <paramref name="path"/> (replaced if it exists).</summary>
        public void SaveToFile(string path)
        {
            System.IO.File.WriteAllBytes(path, Save());
        }

        /// <summary>
        /// Loads a world saved by Save: the same options, each tile in its slot with its
        /// generation (list them with GetTiles). On an error status <paramref name="world"/>
        /// is null.
        /// </summary>
        public static unsafe Status TryLoad(byte[] bytes, out NavstarWorld world)
        {
            if (bytes == null)
            {
                throw new ArgumentNullException("bytes");
            }
            fixed (byte* data = bytes)
            {
                Status status = NativeMethods.navstar_world_load_bytes(data, (uint)bytes.Length, out world);
                return NavstarMesh.Checked(status, ref world);
            }
        }

        /// <summary>Loads a world (see TryLoad) or throws NavstarException.</summary>
        public static NavstarWorld Load(byte[] bytes)
        {
            NavstarWorld world;
            NavstarException.ThrowIfError(TryLoad(bytes, out world));
            return world;
        }

        /// <summary>Loads a world saved in the file <paramref name="path"/> (see TryLoad).</summary>
        public static unsafe Status TryLoadFile(string path, out NavstarWorld world)
        {
            byte[] utf8 = NativeMethods.Utf8Path(path);
            fixed (byte* text = utf8)
            {
                Status status = NativeMethods.navstar_world_load(text, out world);
                return NavstarMesh.Checked(status, ref world);
            }
        }

        /// <summary>Loads a world from a file (see TryLoadFile) or throws NavstarException.</summary>
        public static NavstarWorld LoadFile(string path)
        {
            NavstarWorld world;
            NavstarException.ThrowIfError(TryLoadFile(path, out world));
            return world;
        }
    }

    public sealed partial class NavstarMesh
    {
        /// <summary>
        /// The numbers of every polygon, in increasing order: 0 to PolygonCount - 1 for a
        /// mesh built from arrays; for a snapshot of a world, numbers that encode the tile.
        /// </summary>
        public unsafe int[] GetPolygonIds()
        {
            for (;;)
            {
                uint count;
                NavstarException.ThrowIfError(NativeMethods.navstar_mesh_polygon_ids(this, null, 0, out count));
                int[] ids = new int[count];
                Status status;
                fixed (int* outIds = ids)
                {
                    status = NativeMethods.navstar_mesh_polygon_ids(this, (uint*)outIds, count, out count);
                }
                NavstarException.ThrowIfError(status);
                if (status == Status.Ok && count == ids.Length)
                {
                    return ids;
                }
            }
        }

        /// <summary>
        /// A reference to polygon <paramref name="polygon"/> that outlives this mesh: it names
        /// the polygon's tile and that tile's generation, so that a later snapshot of the same
        /// world finds the polygon again (or reports it stale).
        /// </summary>
        public Status TryGetPolygonRef(int polygon, out ulong reference)
        {
            return NativeMethods.navstar_mesh_polygon_ref(this, (uint)polygon, out reference);
        }

        /// <summary>A polygon reference (see TryGetPolygonRef), or throws NavstarException.</summary>
        public ulong GetPolygonRef(int polygon)
        {
            ulong reference;
            NavstarException.ThrowIfError(TryGetPolygonRef(polygon, out reference));
            return reference;
        }

        /// <summary>
        /// The polygon a reference names in this mesh; Status.ErrorStaleReference when its
        /// tile was removed or replaced since (then <paramref name="polygon"/> is -1).
        /// </summary>
        public Status TryResolvePolygonRef(ulong reference, out int polygon)
        {
            uint found;
            Status status = NativeMethods.navstar_mesh_resolve_polygon_ref(this, reference, out found);
            polygon = status >= 0 ? (int)found : -1;
            return status;
        }
    }
}
