#!/usr/bin/env python3
"""Generate the DPU instruction table of the isekit model from the reference data.

    python3 models/dpu/gen_isa.py       (from anywhere: rewrites models/dpu/isa_*.inc)
    python3 models/dpu/gen_isa.py --tsv my.tsv --out DIR    (a variant: tests/dpu/tests.cmake)

Inputs (facts, from the DPU reference pack, in models/dpu/data/):
  instructions.tsv  one row per signature: encoding (mask/match, field placement), syntax,
                    immediate ranges, relocations, sugar mapping; and two columns of ours:
                    family (the C operation op_<family> of insns/*.h) and c_form (the form
                    DPU_FORM_<c_form> of forms.h that applies it), '-' for sugar; and flow:
                    call (call rc, ...: the return address in rc), return (call zero, ...: the
                    register jump `jump r23` returns with, which also serves plain jumps; the
                    debugger's call stack tells them apart) or '-'
  conditions.tsv    the condition classes: code -> name (+ assembler aliases)

Outputs (committed; tests/dpu/tests.cmake regenerates them and fails if they differ):
  isa_conditions.inc   per class: code -> meaning table used by the forms
  isa_kinds.inc        the operand kinds and the instruction relocations
  isa_instructions.inc one DPU_INSTRUCTION (real) or DPU_ALIAS (sugar) line per signature

No semantics live here: a line names the behaviour, family, form, destination and condition
class, and dpu.c expands it into a behaviour (DPU_FORM_<form>) and an INSTRUCTION. Everything
that is a fact about bits comes from the TSV files.
"""
import argparse
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')

# ---- reading -----------------------------------------------------------------------------

ARGS = argparse.ArgumentParser(description='Generate models/dpu/isa_*.inc from the TSV tables.')
ARGS.add_argument('--tsv', default=os.path.join(DATA, 'instructions.tsv'), help='the instruction table')
ARGS.add_argument('--conditions', default=os.path.join(DATA, 'conditions.tsv'), help='the condition table')
ARGS.add_argument('--out', default=HERE, help='where to write the isa_*.inc files')
OPTS = ARGS.parse_args()


def read_tsv(path):
    with open(path, newline='') as f:
        rows = list(csv.DictReader(f, delimiter='\t'))
    for i, r in enumerate(rows):
        r['_at'] = '%s:%d' % (path, i + 2)    # the header is line 1
    return rows


def fail(row, message):
    """Stop on a bad row, naming the file and line of the table."""
    sys.exit('%s: %s: %s' % (row['_at'], row['sig'], message))

ROWS = read_tsv(OPTS.tsv)
CONDS = read_tsv(OPTS.conditions)

def operands(row):
    """The syntax column as a list of (name, type) or literal tokens ('zero', 'false')."""
    s = row['syntax']
    if s == '-':
        return []
    out = []
    for tok in s.split(', '):
        if ':' in tok:
            n, t = tok.split(':')
            out.append((n, t))
        else:
            out.append((tok, None))
    return out


def ranges(row):
    r = row['imm_ranges']
    if r == '-':
        return {}
    return dict(x.split('=', 1) for x in r.split())

# ---- condition classes ----------------------------------------------------------------------

# Meaning of each condition name (the same name means the same test in every class; see
# conditions.tsv meaning_test). ltu/geu are the carry tests of subtraction (CF = no borrow).
MEANING = {
    'false': 'CC_FALSE', 'true': 'CC_TRUE', 'z': 'CC_Z', 'nz': 'CC_NZ', 'xz': 'CC_XZ', 'xnz': 'CC_XNZ',
    'pl': 'CC_PL', 'mi': 'CC_MI', 'sz': 'CC_SZ', 'snz': 'CC_SNZ', 'spl': 'CC_SPL', 'smi': 'CC_SMI',
    'ov': 'CC_OV', 'nov': 'CC_NOV', 'c': 'CC_C', 'nc': 'CC_NC', 'ltu': 'CC_NC', 'geu': 'CC_C',
    'lts': 'CC_LTS', 'ges': 'CC_GES', 'les': 'CC_LES', 'gts': 'CC_GTS', 'leu': 'CC_LEU', 'gtu': 'CC_GTU',
    'xles': 'CC_XLES', 'xgts': 'CC_XGTS', 'xleu': 'CC_XLEU', 'xgtu': 'CC_XGTU',
    'e': 'CC_E', 'o': 'CC_O', 'se': 'CC_SE', 'so': 'CC_SO', 'sh32': 'CC_SH32', 'nsh32': 'CC_NSH32',
    'max': 'CC_MAX', 'nmax': 'CC_NMAX', 'small': 'CC_SMALL', 'large': 'CC_LARGE',
}
for n in range(5, 15):
    MEANING['nc%d' % n] = 'CC_NC%d' % n

# Assembler spellings accepted for every class (README 1.5): t = true, nsz = snz.
EXTRA_ALIASES = {'true': ['t'], 'snz': ['nsz']}


def classes():
    out = {}
    for c in CONDS:
        if c['code'] == '-' or c['class'].startswith('const_cc_'):
            continue
        out.setdefault(c['class'], []).append(c)
    return out

CLASSES = classes()


def class_names(cls):
    """The NAMES table of a condition class: printed names first, then aliases, each also
    with the '?' and '!' prefixes the assembler accepts."""
    items = []
    seen = set()
    for c in CLASSES[cls]:
        code = int(c['code'])
        names = [c['name']]
        if c['asm_aliases_same_code'] != '-':
            names += c['asm_aliases_same_code'].split(',')
        names += EXTRA_ALIASES.get(c['name'], [])
        for n in names:
            if (n, code) not in seen:
                seen.add((n, code))
                items.append((n, code))
    table = ['%s=%d' % (n, v) for n, v in items]
    table += ['?%s=%d' % (n, v) for n, v in items]
    table += ['!%s=%d' % (n, v) for n, v in items]
    return ' '.join(table)

# ---- operand kinds ----------------------------------------------------------------------------

REG_KINDS = {
    'r': 'r0..r23=0',
    'rk': 'r0..r23=0 zero=24 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'rknz': 'r0..r23=0 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'k': 'zero=24 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'd': 'd0..d22/2=0',
    's': 's0..s23=0',
    'sk': 's0..s23=0 zero=24 one=25 lneg=26 mneg=27 id=28 id2=29 id4=30 id8=31',
    'e': '!little=0 !big=1',
}
REG_TYPE = {'r': 'r', 'rk': 'rk', 'rk-nozero': 'rknz', 'k': 'k', 'd': 'd', 's': 's', 'sk': 'sk', 'e': 'e'}

# Display ties between sugars of one base (README 2.3) that declaration order alone cannot
# settle, because the assembler needs register forms declared before immediate forms: the
# losing sugar's register operand leaves out `zero`, so it does not match then.
NOZERO_SUGAR = {'jump:r': 'ra', 'move.u:rrci': 'ra'}

INT_KINDS = {}   # name -> (type, lo, hi)
USED_REG_KINDS = set()   # the register kinds some template uses (the byte order `e` none: endian_rows)


def int_kind(typ, rng):
    lo, hi = (int(x) for x in rng.strip('[]').split(','))
    name = typ
    if typ == 'u32' and (lo, hi) != (-2**31, 2**32 - 1):
        # move.s/move.u: the disassembler prints the value in hex as unsigned, so the assembler
        # accepts the whole SU range, as for every other u32.
        lo, hi = -2**31, 2**32 - 1
    if typ in ('s8', 's16') and hi == 2 ** (int(typ[1:])) - 1:
        name = typ + 'su'
    if name in INT_KINDS and INT_KINDS[name] != (typ, lo, hi):
        sys.exit('kind %s: two ranges %s and %s' % (name, INT_KINDS[name], (typ, lo, hi)))
    INT_KINDS[name] = (typ, lo, hi)
    return name


def is_signed(typ):
    return re.fullmatch(r's\d+', typ) is not None


def kind_of(row, name, typ):
    if typ in REG_TYPE:
        k = REG_TYPE[typ]
        if NOZERO_SUGAR.get(row['sig']) == name and k == 'rk':
            k = 'rknz'
        USED_REG_KINDS.add(k)
        return k
    if typ in CLASSES or typ.endswith('_cc'):
        return typ
    rng = ranges(row).get(name)
    if rng is None:
        fail(row, 'no range for %s' % name)
    return int_kind(typ, rng)

# ---- formats ------------------------------------------------------------------------------------

LETTER = {'rc': 'c', 'dc': 'c', 'sc': 'c', 'ra': 'a', 'sa': 'a', 'rb': 'b', 'db': 'b', 'sb': 'b',
          'imm': 'i', 'off': 'o', 'pc': 'p', 'cc': 'k', 'shift': 'h', 'endian': 'e', 'immDma': 'm'}


def parse_fields(spec):
    """[(name, [(vhi, vlo, whi, wlo)])] in the TSV's order."""
    out = []
    if spec == '-':
        return out
    for part in spec.split('; '):
        segs = []
        name = None
        for seg in part.split():
            m = re.fullmatch(r'(\w+)\{(\d+)(?::(\d+))?\}=(\d+)(?::(\d+))?', seg)
            if not m:
                sys.exit('bad segment ' + seg)
            name = m.group(1)
            vhi = int(m.group(2)); vlo = int(m.group(3) or vhi)
            whi = int(m.group(4)); wlo = int(m.group(5) or whi)
            segs.append((vhi, vlo, whi, wlo))
        out.append((name, segs))
    return out


def format_string(row):
    mask = int(row['mask'], 16)
    match = int(row['match'], 16)
    fields = parse_fields(row['fields'])
    owner = {}
    for name, segs in fields:
        for vhi, vlo, whi, wlo in segs:
            for b in range(wlo, whi + 1):
                owner[b] = name
    s = ''
    for b in range(47, -1, -1):
        if mask >> b & 1:
            s += '1' if match >> b & 1 else '0'
        elif b in owner:
            s += LETTER.get(owner[b], 'x')
        else:
            fail(row, 'bit %d is neither fixed nor an operand' % b)
        if b and b % 4 == 0:
            s += '-'
    return s


def fields_string(row):
    types = {n: t for n, t in operands(row) if t}
    parts = []
    for name, segs in parse_fields(row['fields']):
        flag = ':s' if is_signed(types.get(name, '')) else ''
        # forms.h's DPU_CC indexes a class's 64-entry table with the decoded cc unmasked
        if name == 'cc' and (flag or max(vhi for vhi, _, _, _ in segs) > 5):
            fail(row, 'a cc field must be unsigned and at most 6 bits wide')
        out = []
        for i, (vhi, vlo, whi, wlo) in enumerate(segs):
            v = '%d' % vhi if vhi == vlo else '%d:%d' % (vhi, vlo)
            w = '%d' % whi if whi == wlo else '%d:%d' % (whi, wlo)
            out.append('%s%s{%s}=%s' % (name, flag if i == 0 else '', v, w))
        parts.append(' '.join(out))
    return '; '.join(parts)


def syntax_template(row):
    mn = row['mnemonic']
    ops = []
    for name, typ in operands(row):
        if typ is None:
            ops.append(name)
        else:
            ops.append('{%s:%s}' % (name, kind_of(row, name, typ)))
    return mn + (' ' + ', '.join(ops) if ops else '')


def ident(sig):
    mn, form = sig.split(':')
    s = mn.replace('.', '_')
    if form and form != '-':
        s += '_' + form
    return s

# ---- what a behaviour is made of -----------------------------------------------------------------

def destination(row):
    """The destination operand's kind, for dpu_put: r (rc, sc), d (a pair, written whole), s / u
    (a pair from a 32-bit value, .s/.u mnemonics), none (z forms, stores, ...)."""
    for name, typ in operands(row):
        if name in ('rc', 'sc'):
            return 'r'
        if name == 'dc':
            mn = row['mnemonic']
            return mn[-1] if mn.endswith('.s') or mn.endswith('.u') else 'd'
    return 'none'


def condition_class(row):
    return next((typ for name, typ in operands(row) if name == 'cc'), 'none')


FLOWS = {'call': 'ISK_FLOW_CALL', 'return': 'ISK_FLOW_RETURN', '-': None}


# The byte-order operand of the WRAM loads and stores (`endian{0}=27`): each real row with it
# becomes two decode entries with bit 27 fixed, little (the signature's own name) and big
# (name_be), whose forms (DPU_FORM_<c_form>_le/_be, forms.h) apply a constant order, so that
# the common little-endian access tests nothing (specialised at decode). The syntax shows the
# order as the literal the kind `e` would print, so the text assembled and printed is the same.
ENDIAN_FIELD = 'endian{0}=27'
ENDIAN_ORDERS = (('0', '!little', '', '_le'), ('1', '!big', '_be', '_be'))


def endian_rows(row):
    """The row itself, or its two byte-order specialisations (ENDIAN_FIELD)."""
    parts = row['fields'].split('; ') if row['fields'] != '-' else []
    if row['kind'] != 'real' or ENDIAN_FIELD not in parts:
        return [row]
    if 'endian:e' not in row['syntax'].split(', '):
        fail(row, 'the field %s without the operand endian:e' % ENDIAN_FIELD)
    bit = 1 << 27
    out = []
    for value, literal, sig_suffix, form_suffix in ENDIAN_ORDERS:
        r = dict(row)
        r['mask'] = '%x' % (int(row['mask'], 16) | bit)
        r['match'] = '%x' % (int(row['match'], 16) | (bit if value == '1' else 0))
        r['fields'] = '; '.join(x for x in parts if x != ENDIAN_FIELD) or '-'
        r['syntax'] = ', '.join(literal if t == 'endian:e' else t for t in row['syntax'].split(', '))
        r['sig'] = row['sig'] + sig_suffix
        r['c_form'] = row['c_form'] + form_suffix
        out.append(r)
    return out


def instruction_line(row):
    if len(endian_rows(row)) > 1:
        return ''.join(instruction_line(r) for r in endian_rows(row))
    fmt = format_string(row)
    syn = syntax_template(row)
    opts = ['.fields = %s' % c_str(fields_string(row))] if row['fields'] != '-' else []
    if row['relocations'] != '-':
        opts.append('.relocs = %s' % c_str(row['relocations'].replace(':', '=')))
    rest = '%s, %s%s' % (c_str(fmt), c_str(syn), ''.join(', ' + o for o in opts))
    if row['kind'] == 'sugar':
        return 'DPU_ALIAS(%s, %s)\n' % (ident(row['base_sig']), rest)
    family, form = row.get('family') or '', row.get('c_form') or ''
    flow = row.get('flow') or '-'
    if flow not in FLOWS:
        fail(row, 'flow %r: call, return or -' % flow)
    if FLOWS[flow]:
        rest += ', .flow = ' + FLOWS[flow]
    if not re.fullmatch(r'\w+', form) or not re.fullmatch(r'\w+|-', family):
        fail(row, 'family %r, c_form %r: a real row names its C operation (or -) and its form' % (family, form))
    return 'DPU_INSTRUCTION(%s, %s, %s, %s, %s, %s)\n' % (ident(row['sig']), 'none' if family == '-' else family,
                                                       form, destination(row), condition_class(row), rest)

# ---- ordering -----------------------------------------------------------------------------------

def is_names(row, tok):
    name, typ = tok
    return typ is None or typ in REG_TYPE or typ.endswith('_cc')


def order_key(row):
    """Within one mnemonic, register (name-table) operands before numeric ones, position by
    position: the assembler tries templates in declaration order, and a numeric operand may be a
    symbol, which would swallow a register name. Sugar first on ties (display ties)."""
    return tuple(0 if is_names(row, t) else 1 for t in operands(row))

# ---- output ---------------------------------------------------------------------------------------

HEADER = '/* Generated by models/dpu/gen_isa.py from %s and %s:\n * do not edit. */\n'


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def main():
    header = HEADER % (os.path.basename(OPTS.tsv), os.path.basename(OPTS.conditions))
    real = [r for r in ROWS if r['kind'] == 'real']
    sugar = [r for r in ROWS if r['kind'] == 'sugar']
    sigs = {r['sig'] for r in real}
    for r in sugar:
        if r['base_sig'] not in sigs:
            fail(r, 'sugar of %s, which is not a real row' % r['base_sig'])

    # conditions
    out = [header, '/* Condition classes: code -> meaning (enum dpu_cc in forms.h). */\n']
    for cls in sorted(CLASSES):
        if cls == 'no_cc':
            continue
        entries = ', '.join('[%s] = %s' % (c['code'], MEANING[c['name']]) for c in CLASSES[cls])
        out.append('static const uint8_t dpu_cc_%s[64] = { %s };\n' % (cls, entries))
    write('isa_conditions.inc', ''.join(out))

    # instructions: per mnemonic, register forms before immediate forms
    groups = {}
    for r in ROWS:
        groups.setdefault(r['mnemonic'], []).append(r)
    order = []
    for mn in sorted(groups):
        rs = groups[mn]
        rs.sort(key=lambda r: (order_key(r), r['kind'] != 'sugar'))
        order += rs
    out = [header]
    out.append('/* The %d signatures of %s: %d real (DPU_INSTRUCTION: behaviour, family, form, destination,\n'
               ' * condition class, then INSTRUCTION\'s format, syntax and options), %d sugar (DPU_ALIAS of a\n'
               ' * real behaviour). Per mnemonic, register forms come before immediate forms (the assembler\n'
               ' * tries them in this order). dpu.c includes this file twice (forms.h). */\n' %
               (len(ROWS), os.path.basename(OPTS.tsv), len(real), len(sugar)))
    out += [instruction_line(r) for r in order]
    text = ''.join(out)

    # Kinds are collected while the syntax templates are built: write them after the instructions.
    out = [header]
    out.append('/* Operand kinds: registers, conditions (with the assembler\'s aliases and ?/! prefixes),\n'
               ' * immediates with the ranges the LLVM assembler accepts. */\n')
    out.append('static void dpu_declare_kinds(isk_builder *B)\n{\n')
    for k, names in REG_KINDS.items():
        if k in USED_REG_KINDS:
            out.append('    KIND_NAMES(%s, %s);\n' % (c_str(k), c_str(names)))
    for cls in sorted(CLASSES):
        if cls == 'no_cc':
            continue
        out.append('    KIND_NAMES(%s, %s);\n' % (c_str(cls), c_str(class_names(cls))))
    for name in sorted(INT_KINDS):
        typ, lo, hi = INT_KINDS[name]
        if typ.startswith('pc'):
            out.append('    KIND_ABS(%s, .min = %s, .max = %s, .hex = 1);\n' % (c_str(name), cint(lo), cint(hi)))
        else:
            out.append('    KIND_INT(%s, .min = %s, .max = %s%s);\n' % (c_str(name), cint(lo), cint(hi),
                                                                     ', .hex = 1' if typ[0] == 'u' else ''))
    out.append('}\n\n')
    out.append('/* Instruction relocations (elf-abi.md 5): the scatter of each is that of the operands using it\n'
               ' * in the table; values are S + A translated from the ELF virtual address. */\n')
    out.append('static void dpu_declare_instruction_relocations(isk_builder *B)\n{\n')
    out += relocations()
    out.append('}\n')
    write('isa_kinds.inc', ''.join(out))
    write('isa_instructions.inc', text)


RELOC_NUMBERS = {   # elf-abi.md 5 (ELFRelocs/DPU.def)
    'R_DPU_PC': 128, 'R_DPU_IMM5': 129, 'R_DPU_IMM8_DMA': 130, 'R_DPU_IMM24_PC': 131, 'R_DPU_IMM27_PC': 132,
    'R_DPU_IMM28_PC_OPC8': 133, 'R_DPU_IMM8_STR': 134, 'R_DPU_IMM12_STR': 135, 'R_DPU_IMM16_STR': 136,
    'R_DPU_IMM16_ATM': 137, 'R_DPU_IMM24': 138, 'R_DPU_IMM24_RB': 139, 'R_DPU_IMM27': 140, 'R_DPU_IMM28': 141,
    'R_DPU_IMM32': 142, 'R_DPU_IMM32_ZERO_RB': 143, 'R_DPU_IMM17_24': 144, 'R_DPU_IMM32_DUS_RB': 145,
}


def relocations():
    """Each instruction relocation's bit scatter, taken from the operands that use it; every
    user must agree (the pack checked 864/864 against LLD), and the accepted range is the
    widest of its users' immediate ranges."""
    out = {}
    for r in ROWS:
        if r['relocations'] == '-':
            continue
        fields = dict(parse_fields(r['fields']))
        rng = ranges(r)
        for item in r['relocations'].split():
            op, name = item.split(':')
            segs = sorted(fields[op], key=lambda s: (-s[0], -s[2]))
            lo, hi = (int(x) for x in rng[op].strip('[]').split(','))
            if name in out:
                if out[name][0] != segs:
                    fail(r, '%s scatters %s differently from %s' % (name, segs, out[name]))
                out[name][1] = min(out[name][1], lo)
                out[name][2] = max(out[name][2], hi)
            else:
                out[name] = [segs, lo, hi]
    lines = []
    for name in sorted(out, key=lambda n: RELOC_NUMBERS[n]):
        segs, lo, hi = out[name]
        spec = ' '.join('v{%s}=%s' % ('%d' % a if a == b else '%d:%d' % (a, b), '%d' % c if c == d else '%d:%d' % (c, d))
                        for a, b, c, d in segs)
        lines.append('    RELOCATION(.type = %d, .name = "%s", .bytes = 8, .fields = "%s", .min = %s, .max = %s,\n'
                     '               .convert = dpu_va_to_value);\n' % (RELOC_NUMBERS[name], name, spec, cint(lo), cint(hi)))
    return lines


def cint(v):
    if v < -2**31 or v > 2**31 - 1:
        return 'INT64_C(%d)' % v
    return '%d' % v


def write(name, text):
    os.makedirs(OPTS.out, exist_ok=True)
    path = os.path.join(OPTS.out, name)
    with open(path, 'w') as f:
        f.write(text)


if __name__ == '__main__':
    main()
