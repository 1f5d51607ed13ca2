// wesl alone, with the imports composer/link.ts makes: its bundle size is what the plugin must save at least.
import {
  declsOfKind,
  LinkedWesl,
  linkRegistry,
  mapGPUCompilationInfo,
  parseSrcModule,
  throwOnParseError,
  withLoggerAsync,
} from 'wesl';

Object.assign(globalThis, {
  weslOnly: [
    declsOfKind,
    LinkedWesl,
    linkRegistry,
    mapGPUCompilationInfo,
    parseSrcModule,
    throwOnParseError,
    withLoggerAsync,
  ],
});
