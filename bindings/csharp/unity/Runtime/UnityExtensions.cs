// SPDX-License-Identifier: MIT
//
// Unity-only conveniences: UnityEngine.Vector3 in and out without copying (it has the
// same three-float layout as Navstar.Vector3), and meshes from
// NavMesh.CalculateTriangulation().

#if UNITY_5_3_OR_NEWER
using UnityEngine.AI;
using UVector3 = UnityEngine.Vector3;

namespace Navstar
{
    public partial struct Vector3
    {
        public static implicit operator UVector3(Vector3 v)
        {
            return new UVector3(v.X, v.Y, v.Z);
        }

        public static implicit operator Vector3(UVector3 v)
        {
            return new Vector3(v.x, v.y, v.z);
        }
    }

    public sealed partial class NavstarMesh
    {
        /// <summary>As TryGetVertices(Navstar.Vector3[], ...), straight into UnityEngine.Vector3[] (no copy).</summary>
        public unsafe Status TryGetVertices(UVector3[] vertices, out int count)
        {
            fixed (UVector3* data = vertices)
            {
                return VerticesInto((float*)data, vertices == null ? 0 : vertices.Length, out count);
            }
        }

        /// <summary>As TryGetPolygonPoints(int, Navstar.Vector3[], ...), into UnityEngine.Vector3[] (no copy).</summary>
        public unsafe Status TryGetPolygonPoints(int polygon, UVector3[] points, out int count)
        {
            fixed (UVector3* data = points)
            {
                return PointsInto(polygon, (float*)data, points == null ? 0 : points.Length, out count);
            }
        }

        /// <summary>As TryCreate(Navstar.Vector3[], ...), straight from UnityEngine.Vector3[] (no copy).</summary>
        public static Status TryCreate(UVector3[] vertices, int[] indices, int[] polygonSizes, out NavstarMesh mesh)
        {
            return TryCreateUnity(vertices, indices, polygonSizes, null, out mesh);
        }

        public static Status TryCreate(
            UVector3[] vertices, int[] indices, int[] polygonSizes, MeshOptions options, out NavstarMesh mesh)
        {
            return TryCreateUnity(vertices, indices, polygonSizes, options, out mesh);
        }

        public static NavstarMesh Create(UVector3[] vertices, int[] indices, int[] polygonSizes = null)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreateUnity(vertices, indices, polygonSizes, null, out mesh));
            return mesh;
        }

        public static NavstarMesh Create(UVector3[] vertices, int[] indices, int[] polygonSizes, MeshOptions options)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreateUnity(vertices, indices, polygonSizes, options, out mesh));
            return mesh;
        }

        /// <summary>
        /// A mesh from Unity's baked NavMesh: <c>NavMesh.CalculateTriangulation()</c> gives
        /// triangles whose corners are repeated per polygon; the default options weld
        /// coincident vertices so neighbouring triangles connect. Unity's area index of each
        /// triangle (<c>triangulation.areas</c>, 0 to 31; null: every triangle area 0)
        /// becomes the triangle's navstar area id (the same number) and its flags
        /// <c>1 &lt;&lt; area</c>, so a Unity area mask is a QueryFilter.IncludeFlags (see
        /// NavstarNavMesh). An area outside 0..31, or an areas array whose length is not the
        /// triangle count, throws ArgumentException naming the triangle.
        /// </summary>
        public static Status TryCreate(NavMeshTriangulation triangulation, out NavstarMesh mesh)
        {
            return TryCreateTriangulation(triangulation, null, out mesh);
        }

        public static Status TryCreate(NavMeshTriangulation triangulation, MeshOptions options, out NavstarMesh mesh)
        {
            return TryCreateTriangulation(triangulation, options, out mesh);
        }

        private static Status TryCreateTriangulation(NavMeshTriangulation triangulation, MeshOptions? options, out NavstarMesh mesh)
        {
            if (triangulation.indices == null)
            {
                throw new System.ArgumentNullException("triangulation.indices");
            }
            byte[] areas;
            uint[] flags;
            UnityAreas.Import(triangulation.areas, triangulation.indices.Length / 3, out areas, out flags);
            return TryCreate(triangulation.vertices, triangulation.indices, null, areas, flags, null, options, out mesh);
        }

        public static NavstarMesh Create(NavMeshTriangulation triangulation)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreate(triangulation, out mesh));
            return mesh;
        }

        public static NavstarMesh Create(NavMeshTriangulation triangulation, MeshOptions options)
        {
            NavstarMesh mesh;
            NavstarException.ThrowIfError(TryCreate(triangulation, options, out mesh));
            return mesh;
        }

        private static unsafe Status TryCreateUnity(
            UVector3[] vertices, int[] indices, int[] polygonSizes, MeshOptions? options, out NavstarMesh mesh)
        {
            if (vertices == null)
            {
                throw new System.ArgumentNullException("vertices");
            }
            fixed (UVector3* points = vertices)
            {
                return CreateCore((float*)points, vertices.Length, indices, polygonSizes, options, out mesh);
            }
        }
    }

    public sealed partial class NavstarQuery
    {
        /// <summary>As FindPath(Navstar.Vector3, ...), into a UnityEngine.Vector3[] (no allocation, no copy).</summary>
        public unsafe Status FindPath(UVector3 start, UVector3 goal, UVector3[] buffer, out int count)
        {
            fixed (UVector3* points = buffer)
            {
                return Find((float*)&start, (float*)&goal, null, (float*)points, buffer == null ? 0 : buffer.Length,
                            out count);
            }
        }

        public unsafe Status FindPath(
            UVector3 start, UVector3 goal, PathOptions options, UVector3[] buffer, out int count)
        {
            fixed (UVector3* points = buffer)
            {
                return Find((float*)&start, (float*)&goal, &options, (float*)points,
                            buffer == null ? 0 : buffer.Length, out count);
            }
        }

        /// <summary>The path as a new UnityEngine.Vector3[]; throws NavstarException on errors.</summary>
        public UVector3[] FindPath(UVector3 start, UVector3 goal)
        {
            bool partial;
            return FindPathUnity(start, goal, null, out partial);
        }

        public UVector3[] FindPath(UVector3 start, UVector3 goal, PathOptions options)
        {
            bool partial;
            return FindPathUnity(start, goal, options, out partial);
        }

        public UVector3[] FindPath(UVector3 start, UVector3 goal, PathOptions options, out bool partial)
        {
            return FindPathUnity(start, goal, options, out partial);
        }

        private unsafe UVector3[] FindPathUnity(UVector3 start, UVector3 goal, PathOptions? options, out bool partial)
        {
            int count;
            Vector3[] points = FindIntoScratch((float*)&start, (float*)&goal, options, out count, out partial);
            UVector3[] result = new UVector3[count];
            for (int i = 0; i < count; i++)
            {
                result[i] = new UVector3(points[i].X, points[i].Y, points[i].Z);
            }
            return result;
        }
    }
}
#endif
