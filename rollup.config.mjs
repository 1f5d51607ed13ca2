import typescript from '@rollup/plugin-typescript';

const entries = [
  'index',
  'composer/index',
  'engine/index',
  'picking/index',
  'geometry/index',
  'fragments/index',
  'entities/billboards/index',
  'entities/splats/index',
  'variants/index',
];

export default {
  input: Object.fromEntries(entries.map((name) => [name, `${name}.ts`])),
  output: { dir: 'dist', format: 'es', preserveModules: true, preserveModulesRoot: '.', sourcemap: true },
  // Dependencies stay external: the consumer's bundler resolves them once.
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0'),
  treeshake: { moduleSideEffects: false },
  plugins: [typescript({ tsconfig: './tsconfig.build.json' })],
};
