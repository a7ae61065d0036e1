// SPDX-License-Identifier: MIT
//
// A stand-in for the few UnityEngine types that the binding's UNITY_5_3_OR_NEWER code
// uses, with Unity's shapes (public fields x, y, z; NavMeshTriangulation's arrays). The
// tests compile it into UnityEngine.dll so that those overloads are compiled and run
// under Mono. It is not part of the package.

namespace UnityEngine
{
    public struct Vector3
    {
        public float x;
        public float y;
        public float z;

        public Vector3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }
}

namespace UnityEngine.AI
{
    public struct NavMeshTriangulation
    {
        public UnityEngine.Vector3[] vertices;
        public int[] indices;
        public int[] areas;
    }
}
