// The assets with a code (and an issuer): each with its holders and its order book against lumens.
import { operation, request } from '../api.js';
import { AccountLink, Link, Load, LoadMore, Problem, Table } from '../components.js';
import { amount } from '../format.js';
import { type Connection, usePages, useQuery } from '../hooks.js';
import { paths } from '../router.js';
import { classify } from '../search.js';
import document from '../../queries/assets.graphql';

const ASSETS = operation(document, 'Assets');

interface AssetStat {
  assetType: string;
  assetCode: string;
  assetIssuer: string;
  accounts: { authorized: number };
  balances: { authorized: string };
  numClaimableBalances: number;
  numLiquidityPools: number;
}

export function AssetsPage({ code, issuer }: { code: string; issuer: string }) {
  const found = classify(issuer ? `${code}:${issuer}` : code);
  const valid = found.kind === 'asset';
  const variables = valid ? { code: found.code, issuer: found.issuer || null } : null;
  const loaded = useQuery<{ assets: Connection<AssetStat> }>(ASSETS, variables, `${code}:${issuer}`);
  return (
    <>
      <h1>
        Assets <code>{issuer ? `${code}:${issuer}` : code}</code>
      </h1>
      {found.kind === 'invalid' && <Problem error={found.message} />}
      {found.kind !== 'invalid' && !valid && <Problem error={`“${code}” is not a valid asset code (1 to 12 letters and digits).`} />}
      {variables && (
        <Load loaded={loaded}>
          {(data) =>
            data.assets.edges.length === 0 ? (
              <Problem error={`No asset with the code ${code}${issuer ? ` issued by ${issuer}` : ''} found.`} />
            ) : (
              <AssetList first={data.assets} variables={variables} />
            )
          }
        </Load>
      )}
    </>
  );
}

function AssetList({ first, variables }: { first: Connection<AssetStat>; variables: Record<string, unknown> }) {
  const assets = usePages<AssetStat>(
    first,
    async (after) => (await request<{ assets: Connection<AssetStat> }>(ASSETS, { ...variables, after })).assets,
  );
  return (
    <>
      <Table id="assets" columns={['Code', 'Issuer', 'Holders', 'Held (authorized)', 'Claimable balances / pools', 'Market']}>
        {assets.nodes.map((asset) => (
          <tr key={`${asset.assetCode}:${asset.assetIssuer}`}>
            <td>{asset.assetCode}</td>
            <td>
              <AccountLink id={asset.assetIssuer} />
            </td>
            <td class="number">{asset.accounts.authorized}</td>
            <td class="number">{amount(asset.balances.authorized)}</td>
            <td class="number">
              {asset.numClaimableBalances} / {asset.numLiquidityPools}
            </td>
            <td>
              <Link href={paths.orderBook(`${asset.assetCode}:${asset.assetIssuer}`, 'native')}>order book against XLM</Link>
            </td>
          </tr>
        ))}
      </Table>
      <LoadMore pages={assets} label="assets" />
    </>
  );
}
