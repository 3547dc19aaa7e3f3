-- pandoc Lua filter for archscope's manual pages (cmake/gen-man.sh). A docs/ page becomes man
-- sections: the generated level-1 headings (all capitals: NAME, SYNOPSIS, COMMANDS) stay; the
-- page's own title becomes DESCRIPTION; its "##" sections become .SH (in capitals) and deeper
-- headings move up one level; tables become tagged paragraphs (.TP), the way man pages list
-- options, which read at 80 columns where a wide tbl table would not fit.
local title_seen = false

local function upper(inlines)
  return { pandoc.Str(pandoc.text.upper(pandoc.utils.stringify(inlines))) }
end

function Header(h)
  local text = pandoc.utils.stringify(h.content)
  if h.level == 1 and text == pandoc.text.upper(text) then
    return h
  end
  if h.level == 1 and not title_seen then
    title_seen = true
    return pandoc.Header(1, { pandoc.Str('DESCRIPTION') })
  end
  h.level = math.max(1, h.level - 1)
  if h.level == 1 then
    h.content = upper(h.content)
  end
  return h
end

-- A cell's blocks as paragraphs (a table cell holds Plain blocks, which would run together).
local function paras(blocks)
  local out = {}
  for _, b in ipairs(blocks) do
    if b.t == 'Plain' then
      table.insert(out, pandoc.Para(b.content))
    else
      table.insert(out, b)
    end
  end
  return out
end

function Table(t)
  local heads = {}
  if t.head and t.head.rows and #t.head.rows > 0 then
    for i, c in ipairs(t.head.rows[1].cells) do
      heads[i] = pandoc.utils.stringify(c.contents)
    end
  end
  local items = {}
  for _, body in ipairs(t.bodies) do
    for _, row in ipairs(body.body) do
      local cells = row.cells
      local term = pandoc.utils.blocks_to_inlines(cells[1].contents)
      local def = {}
      for i = 2, #cells do
        local blocks = paras(cells[i].contents)
        if #cells > 2 and heads[i] and heads[i] ~= '' then
          -- several columns: each value after its column's name
          local inl = pandoc.List({ pandoc.Emph({ pandoc.Str(heads[i] .. ':') }), pandoc.Space() })
          inl:extend(pandoc.utils.blocks_to_inlines(cells[i].contents))
          table.insert(def, pandoc.Para(inl))
        else
          for _, b in ipairs(blocks) do
            table.insert(def, b)
          end
        end
      end
      if #def == 0 then
        def = { pandoc.Para({}) }
      end
      table.insert(items, { term, { def } })
    end
  end
  return pandoc.DefinitionList(items)
end
