import { NavLink } from 'react-router';
import { css } from 'styled-system/css';
import { Box, Grid, styled } from 'styled-system/jsx';

import { LoadFailed } from '@/components/feedback/load-failed';
import { LoadingText } from '@/components/feedback/loading-text';
import { Text } from '@/components/ui/text';
import { paths } from '@/config/paths';
import { imageUrl } from '@/lib/image-url';
import { m } from '@/paraglide/messages';
import type { Product } from '@/types/api-schema';

import { useProducts } from '../api/get-products';

/** A game's logo and name; the chosen game is marked as the current page. */
function GameTile({ product }: { product: Product }) {
  return (
    <NavLink
      to={paths.rechargeProduct(product.code)}
      className={css({
        display: 'flex',
        flexDirection: { base: 'column', sm: 'row' },
        alignItems: 'center',
        gap: { base: '2', sm: '3' },
        h: 'full',
        p: { base: '3', md: '4' },
        bg: 'bg.panel',
        borderWidth: '1px',
        borderColor: 'border',
        borderRadius: 'xl',
        shadow: 'xs',
        textAlign: { base: 'center', sm: 'start' },
        transition: 'border-color 0.15s, background 0.15s',
        _hover: { borderColor: 'brand.solid', bg: 'brand.subtle' },
        _currentPage: { borderColor: 'brand.solid', bg: 'brand.subtle', color: 'brand.fg' },
        focusRing: 'outside',
      })}
    >
      <styled.img
        src={imageUrl(product.logoImg)}
        alt=""
        objectFit="cover"
        boxSize={{ base: '10', md: '12' }}
        borderRadius="lg"
        flexShrink={0}
      />
      <Text as="span" fontWeight="semibold" fontSize={{ base: 'sm', md: 'md' }} lineHeight="short" minW="0">
        {product.name}
      </Text>
    </NavLink>
  );
}

/** The games of GET /product; choosing one opens /recharge/{productCode}. */
export function GameList() {
  const products = useProducts();

  if (products.isPending) {
    return (
      <Box mb="6">
        <LoadingText>{m['recharge.products.loading']()}</LoadingText>
      </Box>
    );
  }

  if (products.isError) {
    return (
      <LoadFailed
        title={m['recharge.products.loadFailed']()}
        error={products.error}
        retrying={products.isFetching}
        onRetry={() => void products.refetch()}
        mb="6"
      />
    );
  }

  if (products.data.length === 0) {
    return (
      <Text color="fg.muted" mb="6">
        {m['recharge.products.empty']()}
      </Text>
    );
  }

  return (
    <Box as="nav" aria-label={m['recharge.products.label']()} mb="6">
      <Grid
        as="ul"
        role="list"
        listStyleType="none"
        minChildWidth={{ base: '6.5rem', sm: '13rem' }}
        gap={{ base: '2', md: '4' }}
      >
        {products.data.map((product) => (
          <li key={product.code}>
            <GameTile product={product} />
          </li>
        ))}
      </Grid>
    </Box>
  );
}
