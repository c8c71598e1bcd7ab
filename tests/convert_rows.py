"""The converter's tables: upstream's rows (byte-identical output) and our own mapping rows.

Each row is a name, the components (the root has id ``root``), the data model (``None``
for none) and the compact JSON expected. The table tests check each row; the plan tests
run each row through a plan.
"""

from __future__ import annotations

from typing import Any

from convert_cases import root

# Upstream's table (reference converter section 2): compact JSON must be byte-identical.
UPSTREAM_ROWS: list[tuple[str, list[dict[str, Any]], Any, str]] = [
    (
        "text h1 is a Header without level",
        [root("Text", text="Hi", variant="h1")],
        None,
        '{"$type":"Header","text":"Hi"}',
    ),
    (
        "text h6 is a Header",
        [root("Text", text="Hi", variant="h6")],
        None,
        '{"$type":"Header","text":"Hi"}',
    ),
    (
        "text caption",
        [root("Text", text="small", variant="caption")],
        None,
        '{"$type":"Caption","value":"small"}',
    ),
    (
        "text body is Markdown",
        [root("Text", text="**b**", variant="body")],
        None,
        '{"$type":"Markdown","value":"**b**"}',
    ),
    (
        "text falls back to value",
        [root("Text", value="v")],
        None,
        '{"$type":"Markdown","value":"v"}',
    ),
    (
        "text binding",
        [root("Text", text={"path": "/t"})],
        {"t": "bound"},
        '{"$type":"Markdown","value":"bound"}',
    ),
    (
        "unresolved text falls back to value",
        [root("Text", text={"path": "/nope"}, value="fallback")],
        {},
        '{"$type":"Markdown","value":"fallback"}',
    ),
    (
        "image key order src alt size round",
        [root("Image", round=True, size="md", altText="a", url="https://x/i.png", fit="cover")],
        None,
        '{"$type":"Image","src":"https://x/i.png","alt":"a","size":"md","round":true}',
    ),
    (
        "image src before url, numeric size",
        [root("Image", url="https://x/u.png", src="https://x/s.png", alt="a", size=40)],
        None,
        '{"$type":"Image","src":"https://x/s.png","alt":"a","size":40}',
    ),
    (
        "row from alignment and distribution",
        [root("Row", distribution="center", alignment="end", gap=2)],
        None,
        '{"$type":"Row","gap":2,"align":"end","justify":"center"}',
    ),
    (
        "row string gap is dropped",
        [root("Row", gap="2", justify="start")],
        None,
        '{"$type":"Row","justify":"start"}',
    ),
    (
        "column drops justify",
        [root("Column", justify="center", align="center", gap=1)],
        None,
        '{"$type":"Col","gap":1,"align":"center"}',
    ),
    (
        "card title padding background",
        [root("Card", background="#fff", padding=4, title="T")],
        None,
        '{"$type":"Card","title":"T","padding":4,"background":"#fff"}',
    ),
    (
        "divider flush, axis dropped",
        [root("Divider", axis="vertical", flush=True)],
        None,
        '{"$type":"Divider","flush":true}',
    ),
    (
        "button with string action",
        [root("Button", submit=True, block=False, buttonStyle="danger", text="Go", action="go")],
        None,
        (
            '{"$type":"Button","label":"Go","buttonStyle":"danger","block":false,"submit":true,'
            '"$action":{"type":"a2ui:action","name":"go","surfaceId":"s1","sourceComponentId":"root"}}'
        ),
    ),
    (
        "button record action with bound context",
        [root("Button", label="Go", action={"name": "go", "context": {"who": {"path": "/u"}}})],
        {"u": "ann"},
        (
            '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
            '"surfaceId":"s1","sourceComponentId":"root","context":{"who":"ann"}}}'
        ),
    ),
    (
        "button action bound whole keeps the data's context",
        [root("Button", label="Go", action={"path": "/a"})],
        {"a": {"name": "go", "context": {"k": "v"}}},
        (
            '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
            '"surfaceId":"s1","sourceComponentId":"root","context":{"k":"v"}}}'
        ),
    ),
    (
        "button action bound whole with a null context",
        [root("Button", label="Go", action={"path": "/a"})],
        {"a": {"name": "go", "context": None}},
        (
            '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
            '"surfaceId":"s1","sourceComponentId":"root","context":null}}'
        ),
    ),
    (
        "text field with longText and binding name",
        [
            root(
                "TextField",
                label="Email",
                value={"path": "/form/email"},
                textFieldType="longText",
                placeholder="you@x",
            )
        ],
        {"form": {"email": "a@b"}},
        '{"$type":"Input","placeholder":"you@x","multiline":true,"label":"Email","name":"email"}',
    ),
    (
        "text field name from a trailing slash is empty",
        [root("TextField", text={"path": "/f/"})],
        None,
        '{"$type":"Input","name":""}',
    ),
    (
        "text field root binding gives no name",
        [root("TextField", label="L", value={"path": "/"}, multiline=False)],
        None,
        '{"$type":"Input","multiline":false,"label":"L"}',
    ),
    (
        "checkbox with bound value",
        [root("CheckBox", label="Agree", value={"path": "/ok"})],
        {"ok": True},
        '{"$type":"Checkbox","label":"Agree","name":"ok","defaultChecked":true}',
    ),
    (
        "children last, missing removed",
        [
            root("Column", children=["a", "b"], gap=2),
            {"id": "a", "component": "Divider"},
        ],
        None,
        '{"$type":"Col","gap":2,"children":[{"$type":"Divider"}]}',
    ),
    (
        "children work on Text too",
        [root("Text", text="t", children=["d"]), {"id": "d", "component": "Divider"}],
        None,
        '{"$type":"Markdown","value":"t","children":[{"$type":"Divider"}]}',
    ),
    (
        "wrapped template is a ListView of single-object items",
        [
            root("Column", gap=3, children={"template": {"componentId": "t", "path": "/xs"}}),
            {"id": "t", "component": "Text", "text": {"path": "/n"}},
        ],
        {"xs": [{"n": "a"}, {"n": "b"}]},
        (
            '{"$type":"ListView","children":[{"$type":"ListViewItem","children":'
            '{"$type":"Markdown","value":"a"}},{"$type":"ListViewItem","children":'
            '{"$type":"Markdown","value":"b"}}]}'
        ),
    ),
    (
        "template item whose child is dropped is a bare ListViewItem",
        [
            root("Column", children={"template": {"componentId": "gone", "path": "/xs"}}),
        ],
        {"xs": [1]},
        '{"$type":"ListView","children":[{"$type":"ListViewItem"}]}',
    ),
    (
        "template on a non-list is an empty ListView",
        [
            root("Column", children={"template": {"componentId": "t", "path": "/xs"}}),
            {"id": "t", "component": "Divider"},
        ],
        {"xs": 3},
        '{"$type":"ListView","children":[]}',
    ),
    (
        "unknown component is skipped, siblings kept",
        [
            root("Row", children=["u", "d"]),
            {"id": "u", "component": "Fancy"},
            {"id": "d", "component": "Divider"},
        ],
        None,
        '{"$type":"Row","children":[{"$type":"Divider"}]}',
    ),
    *(
        (
            f"action context {name}",
            [root("Button", label="Go", action={"name": "go", "context": context})],
            {"o": {"z": 1, "10": 2, "9": 3}, "v": 5},
            (
                '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
                f'"surfaceId":"s1","sourceComponentId":"root","context":{expected}}}}}'
            ),
        )
        for name, context, expected in [
            ("a plain list is a list", ["a", {"path": "/v"}, [1]], '["a",5,[1]]'),
            ("an empty list is a list", [], "[]"),
            ("a list not all keyed is a list", [{"key": "k"}, 1], '[{"key":"k"},1]'),
            ("integer keys first", {"b": 1, "2": 2, "a": 3, "1": 4}, '{"1":4,"2":2,"b":1,"a":3}'),
            ("data keys as JavaScript orders", {"o": {"path": "/o"}}, '{"o":{"9":3,"10":2,"z":1}}'),
        ]
    ),
]

# Beyond upstream (the "required" list): our own rows.
OUR_ROWS: list[tuple[str, list[dict[str, Any]], Any, str]] = [
    (
        "button action bound whole resolves its context once",
        [root("Button", label="Go", action={"path": "/a"})],
        {"a": {"name": "go", "context": {"k": {"path": "/v"}}}, "v": 5},
        (
            '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
            '"surfaceId":"s1","sourceComponentId":"root","context":{"k":{"path":"/v"}}}}'
        ),
    ),
    (
        "bare spec template",
        [
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Text", "text": {"path": "name"}},
        ],
        {"xs": [{"name": "a"}]},
        (
            '{"$type":"ListView","children":[{"$type":"ListViewItem","children":'
            '{"$type":"Markdown","value":"a"}}]}'
        ),
    ),
    (
        "v0.8 dataBinding template",
        [
            root("List", children={"template": {"componentId": "t", "dataBinding": "/xs"}}),
            {"id": "t", "component": "Text", "text": {"path": "/n"}},
        ],
        {"xs": [{"n": "a"}]},
        (
            '{"$type":"ListView","children":[{"$type":"ListViewItem","children":'
            '{"$type":"Markdown","value":"a"}}]}'
        ),
    ),
    (
        "absolute path in a template falls back to the root model",
        [
            root("List", children={"componentId": "t", "path": "/xs"}),
            {"id": "t", "component": "Text", "text": {"path": "/title"}},
        ],
        {"xs": [{"n": "a"}], "title": "T"},
        (
            '{"$type":"ListView","children":[{"$type":"ListViewItem","children":'
            '{"$type":"Markdown","value":"T"}}]}'
        ),
    ),
    (
        "v1.0 @path binding",
        [root("Text", text={"@path": "/t"})],
        {"t": "at"},
        '{"$type":"Markdown","value":"at"}',
    ),
    (
        "button Text child becomes the label",
        [
            root("Button", child="l", action={"event": {"name": "buy"}}, variant="primary"),
            {"id": "l", "component": "Text", "text": "Buy"},
        ],
        None,
        (
            '{"$type":"Button","label":"Buy","buttonStyle":"primary","$action":{"type":"a2ui:action",'
            '"name":"buy","surfaceId":"s1","sourceComponentId":"root"}}'
        ),
    ),
    (
        "button other child becomes children",
        [
            root("Button", child="i", variant="borderless"),
            {"id": "i", "component": "Icon", "name": "star"},
        ],
        None,
        '{"$type":"Button","label":"","buttonStyle":"ghost","children":[{"$type":"Icon","name":"star"}]}',
    ),
    (
        "card child",
        [root("Card", child="d"), {"id": "d", "component": "Divider"}],
        None,
        '{"$type":"Card","children":[{"$type":"Divider"}]}',
    ),
    (
        "spec event with context resolved once",
        [
            root(
                "Button",
                label="Go",
                action={"event": {"name": "go", "context": {"a": {"path": "/a"}, "b": 1}}},
            )
        ],
        {"a": {"path": "/b"}, "b": "twice"},
        (
            '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
            '"surfaceId":"s1","sourceComponentId":"root","context":{"a":{"path":"/b"},"b":1}}}'
        ),
    ),
    (
        "v0.8 list context becomes an object",
        [
            root(
                "Button",
                label="Go",
                action={
                    "event": {"name": "go", "context": [{"key": "k", "value": {"path": "/v"}}]}
                },
            )
        ],
        {"v": 5},
        (
            '{"$type":"Button","label":"Go","$action":{"type":"a2ui:action","name":"go",'
            '"surfaceId":"s1","sourceComponentId":"root","context":{"k":5}}}'
        ),
    ),
    (
        "function call action",
        [
            root(
                "Button",
                label="Open",
                action={"functionCall": {"call": "openUrl", "args": {"url": {"path": "/u"}}}},
            )
        ],
        {"u": "https://a2ui.org"},
        (
            '{"$type":"Button","label":"Open","$action":{"type":"a2ui:function","call":"openUrl",'
            '"args":{"url":"https://a2ui.org"}}}'
        ),
    ),
    (
        "list horizontal is a Row, spaceBetween is between, stretch dropped",
        [root("List", direction="horizontal", align="stretch", justify="spaceBetween")],
        None,
        '{"$type":"Row","justify":"between"}',
    ),
    (
        "list vertical is a Col",
        [root("List", align="center")],
        None,
        '{"$type":"Col","align":"center"}',
    ),
    (
        "icon mapped",
        [root("Icon", name="calendarToday")],
        None,
        '{"$type":"Icon","name":"calendar"}',
    ),
    (
        "tabs are titled cards",
        [
            root(
                "Tabs", tabs=[{"title": "A", "child": "a"}, {"title": {"path": "/b"}, "child": "b"}]
            ),
            {"id": "a", "component": "Divider"},
            {"id": "b", "component": "Text", "text": "bee"},
        ],
        {"b": "B"},
        (
            '{"$type":"Col","children":[{"$type":"Card","title":"A","children":[{"$type":"Divider"}]},'
            '{"$type":"Card","title":"B","children":[{"$type":"Markdown","value":"bee"}]}]}'
        ),
    ),
    (
        "modal is its trigger then its content",
        [
            root("Modal", trigger="t", content="c"),
            {"id": "t", "component": "Button", "label": "Open"},
            {"id": "c", "component": "Text", "text": "Body"},
        ],
        None,
        (
            '{"$type":"Col","children":[{"$type":"Button","label":"Open"},'
            '{"$type":"Markdown","value":"Body"}]}'
        ),
    ),
    (
        "exclusive choice picker is a RadioGroup",
        [
            root(
                "ChoicePicker",
                label="Size",
                value={"path": "/size"},
                options=[{"label": "S", "value": "s"}, {"label": {"path": "/ml"}, "value": "m"}],
            )
        ],
        {"size": ["m"], "ml": "Medium"},
        (
            '{"$type":"RadioGroup","options":[{"label":"S","value":"s"},{"label":"Medium","value":"m"}],'
            '"name":"size","label":"Size","defaultValue":"m"}'
        ),
    ),
    (
        "multiple choice picker is a Col of Checkboxes",
        [
            root(
                "ChoicePicker",
                variant="multipleSelection",
                value=["a"],
                options=[{"label": "A", "value": "a"}, {"label": "B", "value": "b"}],
            )
        ],
        None,
        (
            '{"$type":"Col","children":[{"$type":"Checkbox","label":"A","name":"a","defaultChecked":true},'
            '{"$type":"Checkbox","label":"B","name":"b","defaultChecked":false}]}'
        ),
    ),
    (
        "date time input is a DatePicker",
        [root("DateTimeInput", value={"path": "/d"}, min="2020-01-01", label="When")],
        {"d": "2026-01-02"},
        '{"$type":"DatePicker","value":"2026-01-02","min":"2020-01-01","label":"When","name":"d"}',
    ),
    (
        "slider is an Input",
        [root("Slider", label="Vol", value={"path": "/vol"}, max=10)],
        None,
        '{"$type":"Input","label":"Vol","name":"vol"}',
    ),
    (
        "video is a Markdown link",
        [root("Video", url="https://x/v.mp4")],
        None,
        '{"$type":"Markdown","value":"[Video](https://x/v.mp4)"}',
    ),
    (
        "audio player uses its description",
        [root("AudioPlayer", url="/a b.mp3", description="Ep [1]")],
        None,
        '{"$type":"Markdown","value":"[Ep \\\\[1\\\\]](/a%20b.mp3)"}',
    ),
    (
        "image alt from description, else empty",
        [
            root("Row", children=["a", "b"]),
            {"id": "a", "component": "Image", "url": "i.png", "description": "d"},
            {"id": "b", "component": "Image", "url": "data:image/png;base64,AA"},
        ],
        None,
        (
            '{"$type":"Row","children":[{"$type":"Image","src":"i.png","alt":"d"},'
            '{"$type":"Image","src":"data:image/png;base64,AA","alt":""}]}'
        ),
    ),
    (
        "text number is printed as JavaScript would",
        [
            root("Row", children=["a", "b", "c"]),
            {"id": "a", "component": "Text", "text": 10},
            {"id": "b", "component": "Text", "text": 2.0},
            {"id": "c", "component": "Text", "text": {"path": "/x"}},
        ],
        {"x": True},
        (
            '{"$type":"Row","children":[{"$type":"Markdown","value":"10"},'
            '{"$type":"Markdown","value":"2"},{"$type":"Markdown","value":"true"}]}'
        ),
    ),
    (
        "formatString with paths, nested calls and an escape",
        [
            root(
                "Text",
                text={
                    "call": "formatString",
                    "args": {
                        "value": "${/n} ${pluralize(value: ${/n}, one: 'item', other: 'items')} "
                        "for ${formatNumber(value: ${/total}, decimals: 2)} \\${x}"
                    },
                },
            )
        ],
        {"n": 3, "total": 1234.5},
        '{"$type":"Markdown","value":"3 items for 1,234.50 ${x}"}',
    ),
    (
        "@call with formatCurrency and formatDate",
        [
            root("Row", children=["a", "b"]),
            {
                "id": "a",
                "component": "Text",
                "text": {"@call": "formatCurrency", "args": {"value": 6.5, "currency": "USD"}},
            },
            {
                "id": "b",
                "component": "Text",
                "text": {
                    "call": "formatDate",
                    "args": {
                        "value": "2026-02-02T15:17:00Z",
                        "format": "EEEE, MMM d, yyyy 'at' h:mm a",
                    },
                },
            },
        ],
        None,
        (
            '{"$type":"Row","children":[{"$type":"Markdown","value":"$6.50"},'
            '{"$type":"Markdown","value":"Monday, Feb 2, 2026 at 3:17 PM"}]}'
        ),
    ),
]
