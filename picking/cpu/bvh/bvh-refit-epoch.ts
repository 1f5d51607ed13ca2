let refits = 0;

/** @internal Called by every triangle-BVH refit, so pickers can tell in O(1) that no BVH they hold was refitted. */
export function noteTriangleBvhRefit(): void {
  refits++;
}

/** @internal Changes whenever any triangle BVH was refitted. */
export function triangleBvhRefitEpoch(): number {
  return refits;
}
