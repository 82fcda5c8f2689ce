// Panda writes the app's CSS at build time from the styles the source uses (panda.config.ts).
module.exports = {
  plugins: {
    '@pandacss/dev/postcss': {},
  },
};
