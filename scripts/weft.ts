// Runs the weft CLI from source in a clone (`npm run weft -- …`); users get the built one as `npx weft`.
import '../cli/weft.js';
