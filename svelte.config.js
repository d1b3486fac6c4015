import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** Shared by the Vite plugin (build) and svelte-check (typecheck). */
export default {
  preprocess: vitePreprocess(),
  compilerOptions: {
    runes: true,
  },
};
