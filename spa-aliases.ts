// The back office's import aliases (tsconfig.json paths say the same for the type checker):
// @/ is admin-spa/, @contracts/ is contracts/.
import path from 'node:path';

const root = import.meta.dirname;
export const spaAliases = {
  '@contracts': path.join(root, 'contracts'),
  '@': path.join(root, 'admin-spa'),
};
