/** WGSL keywords: words a mutation bench never renames when it plants an identifier typo. */
export const wgslKeywords: ReadonlySet<string> = new Set(
  'fn let var const return if else for while loop break continue switch case default struct true false discard ptr function private workgroup uniform storage read read_write array atomic bitcast enable override alias import'.split(
    ' ',
  ),
);
