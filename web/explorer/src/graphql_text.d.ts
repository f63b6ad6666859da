// esbuild's text loader (scripts/build_explorer.ts): a document of ../queries/ as the text it sends
declare module '*.graphql' {
  const text: string;
  export default text;
}
