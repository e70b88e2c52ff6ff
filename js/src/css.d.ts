// js/build.mjs turns "./widget.css?inline" into the minified sheet as a string (src/styles.ts).
declare module "*.css?inline" {
  const text: string;
  export default text;
}
