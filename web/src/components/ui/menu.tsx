import { Menu as ArkMenu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import { createStyleContext } from 'styled-system/jsx';
import { menu } from 'styled-system/recipes';

const { withRootProvider, withContext } = createStyleContext(menu);

/** A drop-down menu (Chakra's menu recipe on Ark's Menu): arrow keys move, Escape closes. */
export const Menu = {
  Root: withRootProvider(ArkMenu.Root),
  Trigger: withContext(ArkMenu.Trigger, 'trigger'),
  Positioner: withContext(ArkMenu.Positioner, 'positioner'),
  Content: withContext(ArkMenu.Content, 'content'),
  Item: withContext(ArkMenu.Item, 'item'),
  ItemGroup: withContext(ArkMenu.ItemGroup, 'itemGroup'),
  ItemGroupLabel: withContext(ArkMenu.ItemGroupLabel, 'itemGroupLabel'),
  Separator: withContext(ArkMenu.Separator, 'separator'),
};

export { Portal };
